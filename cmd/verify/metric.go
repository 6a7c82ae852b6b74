package main

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// metrics sums the "METRIC name=value" lines that tests log, so a pass can
// say how much was checked: rapid cases, histories and operations checked,
// tasks executed, TLC distinct states. rapid's own "[rapid] OK, passed N
// tests" line counts as rapid_cases=N rapid_properties=1. A test logs, for
// example,
//
//	t.Logf("METRIC histories=%d operations=%d", h, ops)
//
// and verify adds the values up per layer.
type metrics map[string]int64

// rapidOK is what rapid logs after a property passed.
var rapidOK = regexp.MustCompile(`\[rapid\] OK, passed (\d+) tests`)

func (m *metrics) scan(out string) {
	for _, line := range strings.Split(out, "\n") {
		if r := rapidOK.FindStringSubmatch(line); r != nil {
			n, _ := strconv.ParseInt(r[1], 10, 64)
			m.add("rapid_cases", n)
			m.add("rapid_properties", 1)
			continue
		}
		i := strings.Index(line, "METRIC ")
		if i < 0 {
			continue
		}
		for _, f := range strings.Fields(line[i+len("METRIC "):]) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				continue
			}
			m.add(k, n)
		}
	}
}

func (m *metrics) add(k string, n int64) {
	if *m == nil {
		*m = metrics{}
	}
	(*m)[k] += n
}

func (m metrics) String() string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", humanInt(m[k]), k)
	}
	return b.String()
}

func humanInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
