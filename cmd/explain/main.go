// Command explain shows how a mutant of the catalog fails under the
// explorer: it runs the mutant's first explore or weak caught-by entry on
// a mutated copy of the module, and prints the counterexample page the
// failure wrote, the failure and the command that replays it.
//
//	go run ./cmd/explain deque-take-no-fence
//	go run ./cmd/explain -list            # the mutants it can explain
//
// The page is a self-contained HTML file (docs/explore.md, "The
// counterexample page"): open it in a browser and step through the
// schedule with the arrow keys, or open it with #play and play the
// schedule yourself (it runs the failing test with WSCHED_EXPLORE_PLAY=1).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/mutant"
)

func main() {
	list := flag.Bool("list", false, "list the mutants with an explore or weak caught-by entry")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: explain [-list | MUTANT-ID]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	cat, err := mutant.Catalog(filepath.Join(root, "mutants"))
	if err != nil {
		fatal(err)
	}
	if *list {
		for _, m := range cat {
			if c, ok := explorerCatch(m); ok {
				fmt.Printf("%-38s %s\n", m.ID, c)
			}
		}
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	var m *mutant.Mutant
	for _, x := range cat {
		if x.ID == flag.Arg(0) {
			m = x
		}
	}
	if m == nil {
		fatal(fmt.Errorf("no mutant %q in mutants/", flag.Arg(0)))
	}
	c, ok := explorerCatch(m)
	if !ok {
		fatal(fmt.Errorf("%s has no explore or weak caught-by entry: the explorer does not catch it", m.ID))
	}
	rec, err := run(root, m, c)
	if err != nil {
		fatal(err)
	}
	f := rec.Failure
	fmt.Printf("mutant %s: %s\n", m.ID, m.What)
	fmt.Printf("caught by %s: scenario %s, %s at schedule %d (%d preemptions)\n  %s\n", c, rec.Scenario, f.Kind, f.Schedule, f.Preemptions, f.Message)
	if f.Evidence.Page == "" {
		fmt.Println("no page: the failure has no trace (a replay that diverged before it ran)")
	} else {
		fmt.Printf("page:   %s\ntrace:  %s\nplay:   file://%s#play\n", f.Evidence.Page, f.Evidence.Trace, f.Evidence.Page)
	}
	fmt.Printf("replay: %s\n", f.Replay)
}

// explorerCatch is m's first explore or weak caught-by entry.
func explorerCatch(m *mutant.Mutant) (mutant.Catch, bool) {
	for _, c := range m.CaughtBy {
		if c.Layer == "explore" || c.Layer == "weak" {
			return c, true
		}
	}
	return mutant.Catch{}, false
}

// run runs c on a copy of the module with m applied, and returns the
// record of the first scenario that failed.
func run(root string, m *mutant.Mutant, c mutant.Catch) (explore.Record, error) {
	dir, err := mutant.CopyModule(root)
	if err != nil {
		return explore.Record{}, err
	}
	defer os.RemoveAll(dir)
	if err := m.Apply(dir); err != nil {
		return explore.Record{}, err
	}
	recs := filepath.Join(dir, "explore-records.jsonl")
	argv := c.Args("-count=1")
	fmt.Fprintf(os.Stderr, "running %v with %s applied...\n", argv, m.ID)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	// The page is playable (#play): the engine runs the play tree.
	cmd.Env = append(os.Environ(), explore.MutantEnv+"="+m.ID, explore.RecordsEnv+"="+recs, explore.PlayEnv+"=1")
	out, runErr := cmd.CombinedOutput()
	f, err := os.Open(recs)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if r, ok, err := explore.ParseRecord(sc.Text()); ok && err == nil && r.Failure != nil {
				return r, nil
			}
		}
	}
	if runErr == nil {
		return explore.Record{}, fmt.Errorf("%s survived %s: every scenario passed", m.ID, c)
	}
	return explore.Record{}, fmt.Errorf("%s failed %s without a scenario's failure record (%v); its output:\n%s", m.ID, c, runErr, out)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "explain:", err)
	os.Exit(2)
}
