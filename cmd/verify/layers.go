package main

import "time"

// A layer is one kind of check. Layers run in the order of the table: the
// cheap ones first, so a broken build is reported before the stress suite
// spends minutes on it.
type layer struct {
	name  string // what -only takes
	title string // what the table shows
	cmds  [][]string
	long  [][]string // replaces cmds under -long, when set
	// skipWhen returns a reason to skip the layer, or "" to run it.
	skipWhen func() string
	limit    time.Duration
}

func layers(tlaJar string) []layer {
	return []layer{
		{
			name:  "build",
			title: "vet and build",
			cmds: [][]string{
				{"gofmt", "-l", "."},
				{"go", "build", "./..."},
				{"go", "vet", "./..."},
				{"go", "vet", "-tags", "chaos", "./..."},
			},
			limit: 5 * time.Minute,
		},
		{
			name:  "unit",
			title: "package tests and rapid",
			cmds: [][]string{{"go", "test", "-race", "-count=1", "-json",
				"./impl/...", "./spec/...", "./model/...", "./internal/...", "./cmd/..."}},
			long: [][]string{{"go", "test", "-race", "-count=1", "-json", "-rapid.checks=2000",
				"./impl/...", "./spec/...", "./model/..."}},
			limit: 15 * time.Minute,
		},
		{
			name:  "porcupine",
			title: "linearizability (porcupine)",
			cmds:  [][]string{{"go", "test", "-race", "-count=1", "-json", "./linearizability"}},
			long:  [][]string{{"go", "test", "-race", "-count=3", "-json", "./linearizability"}},
			limit: 15 * time.Minute,
		},
		{
			name:  "stress",
			title: "stress under -race",
			cmds:  [][]string{{"go", "test", "-race", "-count=1", "-json", "./stress"}},
			long:  [][]string{{"go", "test", "-race", "-count=1", "-json", "-timeout=0", "./stress"}},
			limit: 20 * time.Minute,
		},
		{
			name:  "chaos",
			title: "stress and porcupine with chaos yield points",
			cmds: [][]string{{"go", "test", "-race", "-tags", "chaos", "-count=1", "-json",
				"./stress", "./linearizability"}},
			long: [][]string{{"go", "test", "-race", "-tags", "chaos", "-count=1", "-json",
				"-timeout=0", "./stress", "./linearizability"}},
			limit: 20 * time.Minute,
		},
		{
			name:  "tlc",
			title: "TLA+ specs (TLC)",
			cmds:  [][]string{{"go", "test", "-count=1", "-json", "./tla"}},
			skipWhen: func() string {
				if tlaJar == "" {
					return "TLA2TOOLS_JAR is not set: the TLC layer did NOT run"
				}
				return ""
			},
			limit: 15 * time.Minute,
		},
	}
}
