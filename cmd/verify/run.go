package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

type status string

const (
	statusPass status = "PASS"
	statusFail status = "FAIL"
	statusSkip status = "SKIPPED"
)

// result is what one layer produced.
type result struct {
	layer    layer
	status   status
	took     time.Duration
	why      string // for a skip, or a failure that is not a test failure
	packages int
	passed   int // top-level tests
	failed   []string
	skipped  []string
	metrics  metrics
	evidence []string
	logs     []string

	gofmtDirty bool // gofmt -l listed a file
}

// testEvent is one line of `go test -json`.
type testEvent struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// evidencePattern finds the files a failing check points at: porcupine's
// HTML view, rapid's fail files, TLC traces and stress dumps.
var evidencePattern = regexp.MustCompile(`\S+(\.html|\.fail|\.trace|\.dump|_TTrace_\S*\.tla|\.out)\b|testdata/rapid/\S+`)

func run(l layer, long bool, logDir string) result {
	r := result{layer: l, status: statusPass}
	if l.skipWhen != nil {
		if why := l.skipWhen(); why != "" {
			r.status, r.why = statusSkip, why
			fmt.Printf("      SKIPPED: %s\n", why)
			return r
		}
	}
	cmds := l.cmds
	if long && l.long != nil {
		cmds = l.long
	}
	start := time.Now()
	for i, argv := range cmds {
		logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d.log", l.name, i))
		r.logs = append(r.logs, logPath)
		ok, why := runOne(argv, l.limit, logPath, &r)
		if !ok {
			r.status = statusFail
			if why != "" {
				r.why = why
			}
		}
	}
	r.took = time.Since(start)
	if r.status == statusPass && r.packages > 0 && r.passed == 0 && len(r.skipped) > 0 {
		// Every test skipped: the layer did not run, whatever the exit code says.
		r.status = statusSkip
		r.why = "every test in the layer skipped"
	}
	sort.Strings(r.evidence)
	r.evidence = dedup(r.evidence)
	return r
}

// runOne runs one command, streaming a progress line per finished package and
// writing everything to logPath. It reports whether the command passed.
func runOne(argv []string, limit time.Duration, logPath string, r *result) (bool, string) {
	fmt.Printf("      $ %s\n", strings.Join(argv, " "))
	logf, err := os.Create(logPath)
	if err != nil {
		return false, err.Error()
	}
	defer logf.Close()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return false, err.Error()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		consume(pr, logf, r, argv[0], isJSON(argv))
	}()
	err = cmd.Wait()
	pw.Close()
	<-done
	if err == nil && argv[0] == "gofmt" && r.gofmtDirty {
		return false, "gofmt would reformat the files listed above"
	}
	switch {
	case ctx.Err() != nil:
		return false, fmt.Sprintf("timed out after %s (log: %s)", limit, logPath)
	case err != nil:
		return false, fmt.Sprintf("%s: %v (log: %s)", strings.Join(argv[:2], " "), err, logPath)
	}
	return true, ""
}

func isJSON(argv []string) bool {
	for _, a := range argv {
		if a == "-json" {
			return true
		}
	}
	return false
}

// consume reads a command's output line by line.
func consume(in io.Reader, logf io.Writer, r *result, argv0 string, asJSON bool) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	outputs := map[string]*strings.Builder{} // failing test output, by package/test
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(logf, line)
		if !asJSON {
			if argv0 == "gofmt" && strings.HasSuffix(line, ".go") {
				r.gofmtDirty = true
			}
			if strings.TrimSpace(line) != "" {
				fmt.Printf("      | %s\n", line)
			}
			collectEvidence(line, r)
			continue
		}
		var ev testEvent
		if json.Unmarshal([]byte(line), &ev) != nil {
			fmt.Printf("      | %s\n", line) // build errors come as plain text
			continue
		}
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "output":
			r.metrics.scan(ev.Output)
			collectEvidence(ev.Output, r)
			if ev.Test != "" {
				b := outputs[key]
				if b == nil {
					b = &strings.Builder{}
					outputs[key] = b
				}
				if b.Len() < 64<<10 {
					b.WriteString(ev.Output)
				}
			}
		case "pass", "fail", "skip":
			if ev.Test == "" {
				r.packages++
				fmt.Printf("      %-4s %s (%.1fs)\n", strings.ToUpper(ev.Action), ev.Package, ev.Elapsed)
				continue
			}
			if strings.Contains(ev.Test, "/") {
				continue // subtests count through their parent
			}
			name := short(ev.Package) + "." + ev.Test
			switch ev.Action {
			case "pass":
				r.passed++
			case "fail":
				r.failed = append(r.failed, name)
				if b := outputs[key]; b != nil {
					fmt.Printf("      --- FAIL %s\n%s", name, indent(tail(b.String(), 40)))
				}
			case "skip":
				r.skipped = append(r.skipped, name)
				if b := outputs[key]; b != nil {
					fmt.Printf("      --- SKIP %s: %s\n", name, strings.TrimSpace(tail(b.String(), 3)))
				}
			}
			delete(outputs, key)
		}
	}
}

func collectEvidence(s string, r *result) {
	for _, m := range evidencePattern.FindAllString(s, -1) {
		m = strings.Trim(m, `"'(),:`)
		if _, err := os.Stat(m); err == nil || strings.HasPrefix(m, "testdata/rapid") {
			r.evidence = append(r.evidence, m)
		}
	}
}

func short(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/wsched/wsched/")
}

func tail(s string, lines int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > lines {
		ls = append([]string{"        ..."}, ls[len(ls)-lines:]...)
	}
	return strings.Join(ls, "\n") + "\n"
}

func indent(s string) string {
	return "        " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n        ") + "\n"
}

func dedup(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
