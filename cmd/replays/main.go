// Command replays checks that every explorer counterexample of the mutant
// catalog reproduces with the command it prints.
//
//	go run ./cmd/replays                  # every explore and weak cell
//	go run ./cmd/replays -filter deque    # mutants whose ID contains deque
//	go run ./cmd/replays -from sched-     # resume at a mutant
//
// For each caught-by entry of the explore and weak layers it applies the
// mutant to a private copy of the module (as cmd/mutant does, with
// WSCHED_MUTANT set) and runs the entry's go test command with
// WSCHED_EXPLORE_RECORDS naming a file; each failed scenario's run record
// (explore.Record) carries the replay command the failure printed. It then
// runs that command exactly as printed, from the module root, and reads the
// replay's record: the replay must fail with the same kind and the same
// first line of message. It prints one line per cell and a count, and
// exits 1 if any replay did not reproduce.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/mutant"
)

func main() {
	filter := flag.String("filter", "", "only mutants whose ID contains this")
	limit := flag.Duration("timeout", 10*time.Minute, "limit for one command")
	from := flag.String("from", "", "start at this mutant (the catalog is in ID order), to resume a run")
	shared := flag.Bool("trimpath", true, "build with -trimpath (GOFLAGS), so that the mutated copies share the build cache")
	flag.Parse()
	if *shared && !strings.Contains(os.Getenv("GOFLAGS"), "-trimpath") {
		// Without it every copy of the module, in its own directory,
		// compiles every package again. It changes nothing a replay
		// does: the explorer finds the sources from the module root.
		os.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"))
	}
	root, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	cat, err := mutant.Catalog(filepath.Join(root, "mutants"))
	if err != nil {
		fatal(err)
	}
	tmp, err := os.MkdirTemp("", "wsched-replays-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	var cells, killed, reproduced, differ, noRecord int
	start := time.Now()
	for _, m := range cat {
		if !strings.Contains(m.ID, *filter) || m.ID < *from {
			continue
		}
		for _, c := range m.CaughtBy {
			if c.Layer != "explore" && c.Layer != "weak" {
				continue
			}
			cells++
			recs, status := runCell(root, tmp, m, c, *limit)
			var failed []explore.Record
			for _, r := range recs {
				if r.Failure != nil {
					failed = append(failed, r)
				}
			}
			if len(failed) == 0 {
				fmt.Printf("%-38s %-60s %s, no failed scenario recorded\n", m.ID, c, status)
				if status == "KILLED" {
					noRecord++
				}
				continue
			}
			killed++
			ok := true
			for _, r := range failed {
				got, why := replay(root, tmp, r, *limit)
				if why != "" {
					ok = false
					fmt.Printf("%-38s %-60s DID NOT REPRODUCE %s: %s\n  command: %s\n", m.ID, c, r.Scenario, why, r.Failure.Replay)
					continue
				}
				fmt.Printf("%-38s %-60s reproduced %s (%s at schedule %d; replay %s)\n", m.ID, c, r.Scenario, r.Failure.Kind, r.Failure.Schedule, got.Failure.Kind)
			}
			if ok {
				reproduced++
			} else {
				differ++
			}
		}
	}
	fmt.Printf("%d explore and weak cells; %d killed with a recorded failure, %d of them reproduced by their printed replay command, %d not; %d killed without a recorded failure; %v\n",
		cells, killed, reproduced, differ, noRecord, time.Since(start).Round(time.Second))
	if differ > 0 {
		os.Exit(1)
	}
}

// runCell runs caught-by entry c of mutant m on a mutated copy and returns
// the records its scenarios wrote.
func runCell(root, tmp string, m *mutant.Mutant, c mutant.Catch, limit time.Duration) ([]explore.Record, string) {
	dir, err := mutant.CopyModule(root)
	if err != nil {
		return nil, "COPY FAILED: " + err.Error()
	}
	defer os.RemoveAll(dir)
	if err := m.Apply(dir); err != nil {
		return nil, "APPLY FAILED: " + err.Error()
	}
	recFile := filepath.Join(tmp, m.ID+".cell.jsonl")
	os.Remove(recFile)
	argv := c.Args("-count=1")
	status := run(dir, argv, limit, "WSCHED_MUTANT="+m.ID, explore.RecordsEnv+"="+recFile)
	return readRecords(recFile), status
}

// replay runs r's replay command as printed and checks its record.
func replay(root, tmp string, r explore.Record, limit time.Duration) (explore.Record, string) {
	recFile := filepath.Join(tmp, "replay.jsonl")
	os.Remove(recFile)
	status := run(root, []string{"sh", "-c", r.Failure.Replay}, limit, explore.RecordsEnv+"="+recFile)
	var got *explore.Record
	for _, x := range readRecords(recFile) {
		if x.Scenario == r.Scenario {
			x := x
			got = &x
		}
	}
	switch {
	case got == nil:
		return explore.Record{}, "the replay wrote no record for the scenario (" + status + ")"
	case got.Mode != "replay":
		return *got, "the scenario ran in mode " + got.Mode + ", not as a replay"
	case got.Failure == nil:
		return *got, "the replay passed"
	case got.Failure.Kind != r.Failure.Kind || got.Failure.Message != r.Failure.Message:
		return *got, fmt.Sprintf("the replay failed otherwise: %s: %s (want %s: %s)", got.Failure.Kind, got.Failure.Message, r.Failure.Kind, r.Failure.Message)
	}
	return *got, ""
}

func run(dir string, argv []string, limit time.Duration, env ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "TIMEOUT"
	case err != nil:
		return "KILLED"
	}
	return "SURVIVED"
}

func readRecords(path string) []explore.Record {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []explore.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if r, ok, err := explore.ParseRecord(sc.Text()); ok && err == nil {
			out = append(out, r)
		}
	}
	return out
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "replays:", err)
	os.Exit(2)
}
