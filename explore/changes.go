package explore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wsched/wsched/explore/internal/engine"
	"github.com/wsched/wsched/internal/mutant"
)

// The changed lines a verdict names: when a failure comes from a catalog
// mutant (Options.Mutant), the lines its replacement put into the tree;
// otherwise the lines of impl/ and spec/ that differ from the committed
// tree (git diff HEAD), which is what an auditor who edited an ordering
// has. The failure's text and page say which of them its schedule ran,
// and at which steps.

// changedLine is one changed source line: where ("impl/queue/ring.go:312")
// and its text.
type changedLine struct {
	At   string `json:"at"`
	Text string `json:"text"`
}

// changedLines is the lines rec's run changed (nil: none known).
func changedLines(rec Record) []changedLine {
	dir := engine.ModuleDir()
	if dir == "" {
		return nil
	}
	if rec.Mutant != "" {
		return mutantLines(dir, rec.Mutant)
	}
	return diffLines(dir)
}

// mutantLines finds the mutant's replacement in its (mutated) file under
// dir: the lines of the replacement that the original does not have.
func mutantLines(dir, id string) []changedLine {
	m, err := mutant.Parse(filepath.Join(dir, "mutants", id+".mutant"))
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(filepath.Join(dir, m.File))
	if err != nil {
		return nil
	}
	i := strings.Index(string(src), m.Replacement)
	if i < 0 || m.Replacement == "" {
		return nil
	}
	first := strings.Count(string(src[:i]), "\n") + 1
	orig := map[string]bool{}
	for _, l := range strings.Split(m.Original, "\n") {
		orig[strings.TrimSpace(l)] = true
	}
	var out []changedLine
	for k, l := range strings.Split(m.Replacement, "\n") {
		if t := strings.TrimSpace(l); t != "" && !orig[t] {
			out = append(out, changedLine{At: fmt.Sprintf("%s:%d", m.File, first+k), Text: t})
		}
	}
	return out
}

var hunk = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// diffLines is the added lines of git diff HEAD in impl/ and spec/ under
// dir; nil when dir is no git work tree, or git is missing or slow.
func diffLines(dir string) []changedLine {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "diff", "--no-color", "--no-ext-diff", "-U0", "HEAD", "--", "impl", "spec")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return parseDiff(out)
}

// parseDiff reads the added lines of a unified diff with no context.
func parseDiff(diff []byte) []changedLine {
	var out []changedLine
	file, line := "", 0
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "+++ "):
			file = strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/")
			if file == "/dev/null" {
				file = ""
			}
		case strings.HasPrefix(l, "@@"):
			if m := hunk.FindStringSubmatch(l); m != nil {
				line, _ = strconv.Atoi(m[1])
			}
		case strings.HasPrefix(l, "+") && file != "":
			if t := strings.TrimSpace(l[1:]); t != "" {
				out = append(out, changedLine{At: fmt.Sprintf("%s:%d", file, line), Text: t})
			}
			line++
		}
	}
	return out
}

// changedVerdict says which changed lines the failing schedule ran, and
// at which steps; "" when no line changed.
func changedVerdict(lines []changedLine, tr *engine.TraceData) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range lines {
		var steps []string
		if tr != nil {
			for _, s := range tr.Steps {
				if s.At == c.At {
					steps = append(steps, strconv.Itoa(s.N))
				}
			}
		}
		fmt.Fprintf(&b, "changed line %s: %s", c.At, c.Text)
		switch {
		case len(steps) > 0:
			fmt.Fprintf(&b, " (run at step %s)\n", strings.Join(steps, ", "))
		case tr != nil:
			b.WriteString(" (not run by this schedule)\n")
		default:
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
