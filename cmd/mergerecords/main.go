// Command mergerecords puts the run records of the parts of sharded
// searches back together (docs/explore.md, "Sharding").
//
//	go run ./cmd/mergerecords records-0.jsonl records-1.jsonl ...
//
// Each file is a records file the explorer appended to
// (WSCHED_EXPLORE_RECORDS), typically one per job of a CI matrix or of a
// Kubernetes Indexed Job that ran WSCHED_EXPLORE_SHARD=k/n (or
// cmd/verify -only explore -shard k/n). It prints one line per search: the
// scenario, the parts merged, the schedules, how far the search went and
// every failure the parts found (explore.MergeRecords); with -json, the
// merged records as JSON lines instead. The exit status is 1 if a search
// failed, 2 if a search lacks a part or holds one twice (the parts would
// not cover it) or a file cannot be read.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/wsched/wsched/explore"
)

func main() {
	asJSON := flag.Bool("json", false, "print the merged records as JSON lines")
	flag.Parse()
	var recs []explore.Record
	for _, path := range flag.Args() {
		rs, err := explore.ReadRecords(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mergerecords:", err)
			os.Exit(2)
		}
		recs = append(recs, rs...)
	}
	merged, err := explore.MergeRecords(recs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mergerecords:", err)
		os.Exit(2)
	}
	failed := false
	for _, m := range merged {
		failed = failed || len(m.Failures) > 0
		if *asJSON {
			b, err := json.Marshal(m)
			if err != nil {
				fmt.Fprintln(os.Stderr, "mergerecords:", err)
				os.Exit(2)
			}
			fmt.Println(string(b))
			continue
		}
		fmt.Println(line(m))
	}
	if failed {
		os.Exit(1)
	}
}

// line is a merged search in one line.
func line(m explore.Merged) string {
	s := fmt.Sprintf("%s (%s", m.Scenario, m.Mode)
	if m.Weak {
		s += ", weak"
	}
	s += fmt.Sprintf(", %d part(s)): %d schedules, %d steps, longest part %d ms", m.Parts, m.Schedules, m.Steps, m.ElapsedMS)
	switch {
	case m.Mode != "dfs" && m.Mode != "dpor":
	case m.Exhaustive:
		s += fmt.Sprintf(", exhaustive up to %d preemptions", m.Bound)
	case len(m.Failures) == 0:
		s += fmt.Sprintf(", NOT exhaustive at %d: a part's budget ran out", m.Bound)
	}
	for _, f := range m.Failures {
		s += fmt.Sprintf("\n  FAILED: %s at %d preemptions: %s\n  replay: %s", f.Kind, f.Preemptions, f.Message, f.Replay)
	}
	return s
}
