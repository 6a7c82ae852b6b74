// Command verify runs every check the project has, in order, and says what
// broke.
//
//	go run ./cmd/verify              # every layer
//	go run ./cmd/verify -only stress # one layer
//	go run ./cmd/verify -long        # each layer for longer
//
// The layers are: vet and build; the package tests with rapid; the porcupine
// linearizability checks; the stress suite under the race detector; the
// stress and porcupine checks again with the chaos yield points compiled in;
// and TLC on the TLA+ specs when TLA2TOOLS_JAR points at tla2tools.jar (the
// layer is reported as SKIPPED, never as passed, when it does not).
//
// It ends with a table: layer, result, time, and the numbers that make a pass
// mean something. Tests report those numbers by logging lines of the form
// "METRIC name=value ..." (see metric.go). On a failure the failing layer is
// named first, with the evidence each check leaves behind: porcupine's HTML
// view, rapid's fail file, the TLC trace, the stress dump. Every command's
// full output is kept in a log directory whose path is printed.
//
// The exit status is non-zero when any layer failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	only := flag.String("only", "", "run one layer: build, unit, porcupine, stress, chaos, tlc")
	long := flag.Bool("long", false, "run each layer for longer")
	flag.Parse()

	jar := os.Getenv("TLA2TOOLS_JAR")
	all := layers(jar)
	var todo []layer
	for _, l := range all {
		if *only == "" || l.name == *only {
			todo = append(todo, l)
		}
	}
	if len(todo) == 0 {
		var names []string
		for _, l := range all {
			names = append(names, l.name)
		}
		fmt.Fprintf(os.Stderr, "verify: no layer %q; layers: %s\n", *only, strings.Join(names, ", "))
		os.Exit(2)
	}
	logDir, err := os.MkdirTemp("", "wsched-verify-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(2)
	}
	fmt.Printf("verify: full logs in %s\n", logDir)

	start := time.Now()
	var results []result
	for i, l := range todo {
		fmt.Printf("\n[%d/%d] %s\n", i+1, len(todo), l.title)
		r := run(l, *long, logDir)
		results = append(results, r)
		fmt.Printf("      -> %s in %s\n", r.status, r.took.Round(100*time.Millisecond))
	}
	report(os.Stdout, results, time.Since(start))
	fmt.Printf("full logs: %s\n", filepath.Clean(logDir))
	for _, r := range results {
		if r.status == statusFail {
			os.Exit(1)
		}
	}
}
