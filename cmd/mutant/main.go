// Command mutant applies one mutant from the catalog in mutants/ to a private
// copy of the module and runs a command there.
//
//	go run ./cmd/mutant -list
//	go run ./cmd/mutant -check       # originals still match; caught-by lines parse
//	go run ./cmd/mutant ring-no-dst-room -- go test -race -count=1 ./impl/queue
//
// With a command it prints KILLED when the command fails on the mutated copy
// (the check caught the bug) and SURVIVED when it passes, and exits 0 only
// when the mutant was killed. The command runs with WSCHED_MUTANT set to
// the mutant's ID, which the explorer writes into a failure's replay
// command. The working tree is never modified.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wsched/wsched/internal/mutant"
)

func main() {
	list := flag.Bool("list", false, "list the catalog")
	check := flag.Bool("check", false, "check that every mutant still applies to the code")
	keep := flag.Bool("keep", false, "keep the mutated copy and print its path")
	timeout := flag.Duration("timeout", 10*time.Minute, "kill the command after this long (counts as KILLED by timeout)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: mutant [-list | -check | [-keep] ID -- command args...]\n")
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
	switch {
	case *list:
		for _, m := range cat {
			fmt.Printf("%-32s %-5s %s\n  %s\n", m.ID, m.Scope, m.File, m.What)
			for _, c := range m.CaughtBy {
				fmt.Printf("  caught by %s\n", c)
			}
			if m.Problem != "" {
				fmt.Printf("  PROBLEM: %s\n", m.Problem)
			}
		}
		return
	case *check:
		bad := 0
		for _, m := range cat {
			err := m.Check(root)
			if err == nil {
				err = m.Validate()
			}
			if err != nil {
				fmt.Println(err)
				bad++
			}
		}
		var single []string
		for _, m := range cat {
			if len(m.CatchingLayers()) < 2 {
				single = append(single, m.ID)
			}
		}
		if len(single) > 0 {
			// The catalog's goal, not a failure: say which are short of it.
			fmt.Printf("caught by one layer only (the goal is two): %s\n", strings.Join(single, " "))
		}
		fmt.Printf("%d mutants, %d stale or malformed, %d caught by fewer than two layers\n", len(cat), bad, len(single))
		if bad > 0 {
			os.Exit(1)
		}
		return
	}
	args := flag.Args()
	if len(args) < 3 || args[1] != "--" {
		flag.Usage()
		os.Exit(2)
	}
	var m *mutant.Mutant
	for _, c := range cat {
		if c.ID == args[0] {
			m = c
		}
	}
	if m == nil {
		fatal(fmt.Errorf("no mutant %q in mutants/", args[0]))
	}
	dir, err := mutant.CopyModule(root)
	if err != nil {
		fatal(err)
	}
	if *keep {
		fmt.Println("mutated copy:", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if err := m.Apply(dir); err != nil {
		fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[2], args[3:]...)
	cmd.Dir = dir
	// The command knows which mutant it runs under: the explorer puts it
	// in a failure's replay command and its run record.
	cmd.Env = append(os.Environ(), "WSCHED_MUTANT="+m.ID)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case ctx.Err() != nil:
		fmt.Printf("KILLED %s (timeout after %v)\n", m.ID, took)
	case err != nil:
		fmt.Printf("KILLED %s (%v, after %v)\n", m.ID, err, took)
	default:
		fmt.Printf("SURVIVED %s (after %v)\n", m.ID, took)
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "mutant:", err)
	os.Exit(2)
}
