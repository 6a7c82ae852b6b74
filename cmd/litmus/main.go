// Command litmus runs the named litmus tests of its catalog against the
// explorer's weak-memory model and prints every outcome each allows; with
// -explain, the execution behind one outcome, step by step.
//
//	go run ./cmd/litmus -list
//	go run ./cmd/litmus MP+rlx MP+rel+acq
//	go run ./cmd/litmus -explain 'a=1 b=0' MP+rlx
//	go run ./cmd/litmus -explain 'a=1 b=0' -page mp.html MP+rlx   # and its execution graph
//
// The catalog (shapes.go) holds the shapes docs/learn teaches. A test of
// one's own is written with package explore/litmus.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	list := flag.Bool("list", false, "list the catalog")
	explain := flag.String("explain", "", "print an execution that produces this outcome (e.g. 'a=0 b=0')")
	page := flag.String("page", "", "with -explain: also write the execution as a self-contained HTML page with its execution graph to this file")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: litmus [-list] [-explain OUTCOME] NAME...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *list {
		for _, s := range catalog {
			fmt.Printf("%-16s %s\n", s.test.Name, s.about)
		}
		return
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	failed := false
	for _, name := range flag.Args() {
		s, ok := find(name)
		if !ok {
			fmt.Fprintf(os.Stderr, "litmus: no test %q in the catalog (-list)\n", name)
			os.Exit(2)
		}
		if *explain != "" {
			ex, ok := s.test.Explain(*explain)
			if !ok {
				fmt.Printf("%s: no execution produces %s\n", name, *explain)
				failed = true
				continue
			}
			fmt.Println(ex)
			if *page != "" {
				if err := os.WriteFile(*page, []byte(ex.Page()), 0o644); err != nil {
					fmt.Fprintln(os.Stderr, "litmus:", err)
					os.Exit(2)
				}
				fmt.Printf("page: %s\n", *page)
			}
			continue
		}
		print(s)
	}
	if failed {
		os.Exit(1)
	}
}

func find(name string) (shape, bool) {
	for _, s := range catalog {
		if s.test.Name == name {
			return s, true
		}
	}
	return shape{}, false
}

func print(s shape) {
	fmt.Printf("%s: %s\n", s.test.Name, s.about)
	for i, th := range s.test.Threads {
		ops := make([]string, len(th))
		for j, o := range th {
			ops[j] = o.String()
		}
		fmt.Printf("  T%d: %s\n", i+1, strings.Join(ops, "; "))
	}
	outcomes, n := s.test.Outcomes()
	fmt.Printf("  %d executions, %d outcomes:\n", n, len(outcomes))
	for _, o := range outcomes {
		mark := ""
		if o == s.watch {
			mark = "   <- the outcome in question"
		}
		fmt.Printf("    %s%s\n", o, mark)
	}
	if s.watch != "" && !contains(outcomes, s.watch) {
		fmt.Printf("  never: %s\n", s.watch)
	}
}

func contains(list []string, x string) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
