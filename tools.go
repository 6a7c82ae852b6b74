//go:build tools

package tools

import (
	_ "github.com/anishathalye/porcupine"
	_ "golang.org/x/sys/unix"
	_ "pgregory.net/rapid"
)
