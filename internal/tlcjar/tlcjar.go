// Package tlcjar finds TLC (tla2tools.jar) for the TLC layer, the trace
// validation and cmd/verify: TLA2TOOLS_JAR when set, else
// ../shared/tools/tla2tools.jar beside the repository's root. The jar is
// never committed.
package tlcjar

import (
	"os"
	"path/filepath"
)

// Shared is the jar's place relative to the repository's root.
const Shared = "../shared/tools/tla2tools.jar"

// Find returns TLA2TOOLS_JAR when it is set (a set variable naming a
// missing file is the caller's to report), else the absolute path of
// Shared when that file exists (the root is the nearest folder above the
// working directory with a go.mod), else "".
func Find() string {
	if j := os.Getenv("TLA2TOOLS_JAR"); j != "" {
		return j
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			j := filepath.Join(dir, filepath.FromSlash(Shared))
			if _, err := os.Stat(j); err == nil {
				return j
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
