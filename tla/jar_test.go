package tla

import "github.com/wsched/wsched/internal/tlcjar"

// tlaJar is the TLC jar the tests use: TLA2TOOLS_JAR, else
// ../shared/tools/tla2tools.jar beside the repository (internal/tlcjar).
func tlaJar() string { return tlcjar.Find() }
