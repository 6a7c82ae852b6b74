package main

import (
	"os"
	"path/filepath"
)

// sharedTLAJar is where a checkout finds TLC when TLA2TOOLS_JAR is not set:
// ../shared/tools/tla2tools.jar, relative to the repository's root (the
// directory verify runs in). The jar is never committed.
const sharedTLAJar = "../shared/tools/tla2tools.jar"

// tlaJar is the TLC jar verify uses: TLA2TOOLS_JAR when set, else
// sharedTLAJar (absolute) when it exists, else "" (the TLC layer is then
// reported as SKIPPED). A jar found beside the repository is exported as
// TLA2TOOLS_JAR, so the tests verify starts use the same one.
func tlaJar() string {
	if j := os.Getenv("TLA2TOOLS_JAR"); j != "" {
		return j
	}
	abs, err := filepath.Abs(sharedTLAJar)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(abs); err != nil {
		return ""
	}
	os.Setenv("TLA2TOOLS_JAR", abs)
	return abs
}
