package tla

import (
	"os"
	"path/filepath"
)

// sharedJar is where a checkout finds TLC when TLA2TOOLS_JAR is not set:
// tools/tla2tools.jar in the shared folder beside the repository's root
// (../shared/tools/tla2tools.jar from the root; this package's tests run in
// tla/, one level down). The jar is never committed.
const sharedJar = "../../shared/tools/tla2tools.jar"

// tlaJar is the TLC jar the tests use: TLA2TOOLS_JAR when set (a set
// variable naming a missing file is the caller's error, reported by the
// test), else sharedJar as an absolute path when that file exists, else "".
func tlaJar() string {
	if j := os.Getenv("TLA2TOOLS_JAR"); j != "" {
		return j
	}
	if _, err := os.Stat(sharedJar); err == nil {
		if abs, err := filepath.Abs(sharedJar); err == nil {
			return abs
		}
	}
	return ""
}
