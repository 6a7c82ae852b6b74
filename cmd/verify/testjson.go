package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// testEvent is one line of `go test -json`.
type testEvent struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// maxJoined bounds the output readTestJSON joins into one line: a line
// longer than this is handed on in pieces.
const maxJoined = 1 << 20

// readTestJSON reads the output of a go test -json command, copying every
// line to log. A line that is no event (a build error; every line of a
// command run without -json) goes to text; each event goes to event. An
// output event holds one whole line: test2json cuts a line longer than its
// buffer (1 KB) into several events, as it does the explorer's run record
// of a failure, and readTestJSON joins the pieces (per package and test)
// before it hands the line on.
func readTestJSON(in io.Reader, log io.Writer, text func(line string), event func(ev testEvent)) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	pending := map[string]*testEvent{} // a line's first pieces, by package and test
	flush := func(key string) {
		if p := pending[key]; p != nil {
			delete(pending, key)
			event(*p)
		}
	}
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(log, line)
		var ev testEvent
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Action == "" {
			text(line)
			continue
		}
		key := ev.Package + " " + ev.Test
		if ev.Action != "output" {
			flush(key)
			event(ev)
			continue
		}
		if p := pending[key]; p != nil {
			p.Output += ev.Output
		} else {
			pending[key] = &ev
		}
		if strings.HasSuffix(ev.Output, "\n") || len(pending[key].Output) >= maxJoined {
			flush(key)
		}
	}
	// Output cut off by the end of the stream (a crashed binary).
	keys := make([]string, 0, len(pending))
	for k := range pending {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		flush(k)
	}
}
