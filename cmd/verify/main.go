// Command verify runs every check the project has, in order, and says what
// broke.
//
//	go run ./cmd/verify              # every layer
//	go run ./cmd/verify -only stress # one layer
//	go run ./cmd/verify -long        # each layer for longer
//	go run ./cmd/verify -mutants     # the kill matrix: every mutant x layer
//	go run ./cmd/verify -mutants -fast   # each mutant's caught-by commands (CI)
//
// The layers are: vet and build; the package tests with rapid; the
// explorer, which runs small scenarios of the real impl/ code under every
// interleaving up to a preemption bound, and again in its weak-memory mode;
// the lessons of docs/learn, every command run; the porcupine linearizability
// checks; the stress suite under the race detector; the
// stress and porcupine checks again with the chaos yield points compiled in;
// and TLC on the TLA+ specs when TLA2TOOLS_JAR points at tla2tools.jar (the
// layer is reported as SKIPPED, never as passed, when it does not).
//
// It ends with a table: layer, result, wall time, CPU (user and system, the
// processes each command started included, with the cores it kept busy;
// counted on Linux only), and the numbers that make a pass mean something.
// Tests report those numbers by logging lines of the form
// "METRIC name=value ..." (see metric.go). The explorer's scenarios are
// read from their run records (the "EXPLORE_RECORD {json}" lines
// explore.Check logs; record.go): a passed scenario is shown as one line,
// a failed one's counterexample page and replay command are evidence. On a
// failure the failing layer is
// named first, with the evidence each check leaves behind: porcupine's HTML
// view, rapid's fail file, the TLC trace, the stress dump. A file a failing
// test names that was last written before this run started (one an earlier
// run left in /tmp) is listed as older than this run, with its time, not as
// evidence. Every command's full output is kept in a log directory whose
// path is printed.
//
// -long sets WSCHED_LONG=1 for every test (the stress scenarios run 8 times
// larger, porcupine runs more and longer rounds), gives rapid 2000 cases per
// property instead of 100, and lifts go test's timeout.
//
// -mutants runs the mutant catalog (mutants/*.mutant): each mutant is applied
// to a temporary copy of the module and the unit, porcupine, stress and chaos
// layers run there, each restricted to the packages that import the mutated
// one; the result is a kill matrix, mutant x layer. With -fast only the go
// test commands named by each mutant's caught-by line run, up to the first
// that kills it (-every runs them all, to confirm each entry). -mutant SUBSTR
// picks mutants by id and, without -fast, -only LAYER picks one column of the
// matrix. -j N runs N mutants at once (one more than GOMAXPROCS by default), each on its
// own copy, and prints each mutant's lines whole, in catalog order. Each
// cell's line shows its command's CPU, and each mutant's line and row of the
// matrix, and the total, the CPU of the cells with the cores it kept busy,
// counted as for the layers' table. Either way
// the run fails if a mutant is stale (its original text no longer matches
// the code) or no check killed it.
//
// -shard k/n (with -only explore or -only weak) runs part k of n of every
// scenario's search, by setting WSCHED_EXPLORE_SHARD for its commands: n
// jobs, on n machines, run the layer between them, and cmd/mergerecords
// puts their run records together (docs/explore.md, "Sharding").
//
// -long -part k/n (or WSCHED_VERIFY_PART=k/n) runs part k of n of -long:
// the build layer and the layers dealt to k, each layer whole, dealt by its
// measured time so the parts end about together (part.go). n jobs, on n
// machines, run every layer once between them; each prints what the
// others run, and the whole run passes when every part does.
//
// The exit status is non-zero when any layer failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/wsched/wsched/internal/mutant"
)

func main() {
	only := flag.String("only", "", "run one layer: build, unit, explore, weak, learn, porcupine, stress, chaos, tlc")
	long := flag.Bool("long", false, "run each layer for longer")
	mutants := flag.Bool("mutants", false, "run the mutant catalog and print the kill matrix")
	fast := flag.Bool("fast", false, "with -mutants: run only each mutant's caught-by commands")
	every := flag.Bool("every", false, "with -mutants -fast: run every caught-by entry, not only up to the first kill")
	which := flag.String("mutant", "", "with -mutants: only mutants whose id contains this")
	catalog := flag.String("catalog", "", "with -mutants: read the mutants from this directory instead of mutants/")
	// One mutant more than the cores: a cell spends much of its time
	// waiting, on a link or on a test's watchdog (the kill of a mutant
	// that hangs the scheduler), and the next mutant's build fills it.
	// The 59 sched- mutants on two cores: 1m52s and 1m51s at two at a
	// time (1.1 to 1.2 cores), 1m30s and 1m44s at three.
	jobs := flag.Int("j", runtime.GOMAXPROCS(0)+1, "with -mutants: how many mutants run at once")
	cell := flag.Duration("cell-timeout", 0, "with -mutants: time limit per go test run (default 3m with -fast, 8m without)")
	shard := flag.String("shard", "", "with -only explore or -only weak: run part k of n (k/n, 0 <= k < n) of every scenario's search ("+shardEnv+")")
	partFlag := flag.String("part", "", "with -long: run part k of n (k/n, 0 <= k < n) of the layers, dealt by their measured times; n jobs on n machines run -long between them ("+partEnv+")")
	flag.Parse()
	var p part
	if v, from := *partFlag, "-part"; v != "" || os.Getenv(partEnv) != "" {
		if v == "" {
			v, from = os.Getenv(partEnv), partEnv
		}
		var err error
		if p, err = parsePart(v, from, *long, *only, *shard, *mutants); err != nil {
			fmt.Fprintln(os.Stderr, "verify:", err)
			os.Exit(2)
		}
	}
	if *shard != "" {
		if err := setShard(*shard, *only, *mutants); err != nil {
			fmt.Fprintln(os.Stderr, "verify:", err)
			os.Exit(2)
		}
	}

	if *mutants {
		root, err := os.Getwd()
		if err != nil {
			fmt.Fprintln(os.Stderr, "verify:", err)
			os.Exit(2)
		}
		logDir, err := os.MkdirTemp("", "wsched-verify-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "verify:", err)
			os.Exit(2)
		}
		opt := mutantOptions{fast: *fast, every: *every, filter: *which, only: *only, dir: *catalog, limit: *cell, jobs: *jobs}
		if opt.only != "" && !slices.Contains(mutant.Layers, opt.only) {
			fmt.Fprintf(os.Stderr, "verify: -mutants -only takes one of %s\n", strings.Join(mutant.Layers, ", "))
			os.Exit(2)
		}
		if opt.limit == 0 {
			opt.limit = 8 * time.Minute
			if opt.fast {
				opt.limit = 3 * time.Minute
			}
		}
		evidenceBeside(logDir)
		if !runMutants(root, opt, logDir) {
			os.Exit(1)
		}
		return
	}

	jar := tlaJar() // TLA2TOOLS_JAR, else ../shared/tools/tla2tools.jar (tlajar.go)
	all := layers(jar)
	var names []string
	for _, l := range all {
		names = append(names, l.name)
	}
	var mine, partSays []string // with -part: the layers of this part, and what it prints of the deal
	if p.n > 0 {
		mine, partSays = partOf(p, names)
	}
	var todo []layer
	for _, l := range all {
		if (*only == "" || l.name == *only) && (p.n == 0 || slices.Contains(mine, l.name)) {
			todo = append(todo, l)
		}
	}
	if len(todo) == 0 {
		fmt.Fprintf(os.Stderr, "verify: no layer %q; layers: %s\n", *only, strings.Join(names, ", "))
		os.Exit(2)
	}
	logDir, err := os.MkdirTemp("", "wsched-verify-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(2)
	}
	fmt.Printf("verify: full logs in %s\n", logDir)
	for _, line := range partSays {
		fmt.Println("verify: " + line)
	}
	evidenceBeside(logDir)

	start := time.Now()
	var results []result
	for i, l := range todo {
		fmt.Printf("\n[%d/%d] %s\n", i+1, len(todo), l.title)
		r := run(l, *long, logDir)
		results = append(results, r)
		fmt.Println(doneLine(r))
	}
	report(os.Stdout, results, time.Since(start))
	for _, line := range partSays {
		fmt.Println(line)
	}
	fmt.Printf("full logs: %s\n", filepath.Clean(logDir))
	for _, r := range results {
		if r.status == statusFail {
			os.Exit(1)
		}
	}
}

// evidenceBeside makes the explorer write its counterexample pages into
// the log directory (explore.EvidenceEnv), beside the logs that name them,
// unless the caller chose a directory.
func evidenceBeside(logDir string) {
	if os.Getenv("WSCHED_EXPLORE_EVIDENCE") == "" {
		os.Setenv("WSCHED_EXPLORE_EVIDENCE", filepath.Join(logDir, "explore-pages"))
	}
}

// shardEnv is explore.ShardEnv (verify does not import the explorer).
const shardEnv = "WSCHED_EXPLORE_SHARD"

// setShard checks -shard's value and sets shardEnv for the commands verify
// runs. The explore and weak layers split (the weak layer's bounded
// reduced search too); the other layers are not searches.
func setShard(v, only string, mutants bool) error {
	if _, _, ok := parseKOfN(v); !ok {
		return fmt.Errorf("-shard %q: want k/n with 0 <= k < n", v)
	}
	if (only != "explore" && only != "weak") || mutants {
		return fmt.Errorf("-shard runs with -only explore or -only weak (the other layers are not searches)")
	}
	return os.Setenv(shardEnv, v)
}
