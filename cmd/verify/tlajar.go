package main

import (
	"os"

	"github.com/wsched/wsched/internal/tlcjar"
)

// tlaJar is the TLC jar verify uses: TLA2TOOLS_JAR, else
// ../shared/tools/tla2tools.jar beside the repository (internal/tlcjar),
// else "" (the TLC layers are then reported as SKIPPED). A jar found
// beside the repository is exported as TLA2TOOLS_JAR, so the tests verify
// starts use the same one.
func tlaJar() string {
	j := tlcjar.Find()
	if j != "" {
		os.Setenv("TLA2TOOLS_JAR", j)
	}
	return j
}
