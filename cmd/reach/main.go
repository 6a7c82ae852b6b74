// Command reach says which of impl/'s protocols the explorer's scenarios
// reach, in the plain and in the weak-memory mode: it reads the coverage
// profiles the explore and weak layers of cmd/verify write into their log
// directory (explore-0-P.cover, weak-0-P.cover: one per test process) and
// prints, per file of impl/, how many of its statements ran and which of
// its functions that touch shared state no scenario entered
// (internal/reach, which also gates the two layers).
//
//	go run ./cmd/verify -only explore; go run ./cmd/verify -only weak      # each prints its log directory
//	go run ./cmd/reach -plain "$(ls $LOGS1/explore-*.cover | paste -sd,)" -weak "$(ls $LOGS2/weak-*.cover | paste -sd,)"
//	go run ./cmd/reach -plain ... -weak ... -check   # exit 1 as the layers' gate fails
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/wsched/wsched/internal/reach"
)

func main() {
	plain := flag.String("plain", "", "coverage profiles of the plain explore runs (comma-separated)")
	weakP := flag.String("weak", "", "coverage profiles of the weak-memory runs (comma-separated)")
	check := flag.Bool("check", false, "exit 1 if a mode's gate fails (a shared-state function unreached and not exempt, or a stale exemption)")
	flag.Parse()
	fns, err := reach.Functions(".")
	if err != nil {
		fail(err)
	}
	pb, err := reach.ReadProfiles(strings.Split(*plain, ",")...)
	if err != nil {
		fail(err)
	}
	wb, err := reach.ReadProfiles(strings.Split(*weakP, ",")...)
	if err != nil {
		fail(err)
	}
	reach.Attribute(fns, pb, wb)
	exempt, err := reach.LoadExempt(".")
	if err != nil {
		fail(err)
	}
	reach.Table(os.Stdout, fns, *weakP != "", exempt)
	if !*check {
		return
	}
	var bad []string
	for _, m := range []struct{ mode, profiles string }{{"plain", *plain}, {"weak", *weakP}} {
		if m.profiles == "" {
			continue
		}
		b, err := reach.Check(".", m.mode, strings.Split(m.profiles, ","))
		if err != nil {
			fail(err)
		}
		bad = append(bad, b...)
	}
	for _, b := range bad {
		fmt.Fprintln(os.Stderr, "reach:", b)
	}
	if len(bad) > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "reach:", err)
	os.Exit(2)
}
