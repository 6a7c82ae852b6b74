//go:build !race

package debugcheck

// Race reports whether the race detector is on (go build -race).
const Race = false
