package explore

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wsched/wsched/explore/internal/engine"
)

// The counterexample page: a failure's schedule as one self-contained
// HTML file (its script and style inside it, nothing fetched), written
// beside the test log with the trace as JSON, as porcupine writes a page
// for a history. docs/explore.md, "The counterexample page", gives its
// structure as a contract (the elements and data- attributes a test or a
// tool may rely on).

//go:embed page/page.html page/page.css page/page.js
var pageFiles embed.FS

var pageTemplate = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"dec": func(i int) int { return i - 1 },
	// goroutineOf is the goroutine of step n of tr.
	"goroutineOf": func(tr *engine.TraceData, n int) int {
		if n < 1 {
			return -1
		}
		return tr.Steps[n-1].G
	},
	"ints": func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, " ")
	},
	"stepName":  func(int) string { return "" }, // replaced per page
	"stepNames": func([]int) string { return "" },
}).ParseFS(pageFiles, "page/page.html"))

// evidenceDir is where the pages go: dir (Options.Evidence), or by
// default wsched-explore under the system's temporary directory.
func evidenceDir(dir string) string {
	if dir != "" {
		return dir
	}
	return filepath.Join(os.TempDir(), "wsched-explore")
}

// writeEvidence writes f's page and trace file into dir (Options.Evidence).
func writeEvidence(dir string, rec Record, f *Failure, changed []changedLine) (Evidence, error) {
	dir = evidenceDir(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Evidence{}, err
	}
	base := strings.NewReplacer("/", "-", " ", "-").Replace(rec.Scenario)
	if rec.Mutant != "" {
		base += "." + rec.Mutant
	}
	if rec.Weak {
		base += ".weak"
	}
	base += "." + time.Now().UTC().Format("20060102T150405") + fmt.Sprintf(".%d", os.Getpid())
	tr := *f.Data()
	tr.Scenario = rec.Scenario
	js, err := json.Marshal(&tr)
	if err != nil {
		return Evidence{}, err
	}
	ev := Evidence{Page: filepath.Join(dir, base+".html"), Trace: filepath.Join(dir, base+".json")}
	if err := os.WriteFile(ev.Trace, js, 0o644); err != nil {
		return Evidence{}, err
	}
	page, err := renderPage(rec, f, &tr, js, changed)
	if err != nil {
		return Evidence{}, err
	}
	return ev, os.WriteFile(ev.Page, page, 0o644)
}

// explanation is one line of the page's #explain list: a missing
// synchronises-with edge, a data race, a changed line the schedule ran.
type explanation struct {
	Step  int // the step it is about (0: none)
	Class string
	Text  string
}

// explain lists what the trace says the failure depends on.
func explain(tr *engine.TraceData, changed []changedLine) []explanation {
	var out []explanation
	for _, s := range tr.Steps {
		if s.Race > s.N {
			o := tr.Steps[s.Race-1]
			out = append(out, explanation{s.Race, "race", fmt.Sprintf("data race: %s at %s and %s at %s: neither access happens before the other",
				tr.StepName(s.N), s.At, tr.StepName(o.N), o.At)})
		}
		if s.Missing != "" {
			out = append(out, explanation{s.N, "missing", "missing synchronises-with: " + s.Missing})
		}
	}
	if v := changedVerdict(changed, tr); v != "" {
		for _, l := range strings.Split(v, "\n") {
			out = append(out, explanation{0, "changed", l})
		}
	}
	return out
}

// renderPage is the page of failure f.
func renderPage(rec Record, f *Failure, tr *engine.TraceData, js []byte, changed []changedLine) ([]byte, error) {
	css, err := pageFiles.ReadFile("page/page.css")
	if err != nil {
		return nil, err
	}
	script, err := pageFiles.ReadFile("page/page.js")
	if err != nil {
		return nil, err
	}
	stale := 0
	for _, s := range tr.Steps {
		if s.Stale {
			stale++
		}
	}
	t, err := pageTemplate.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(template.FuncMap{"stepName": tr.StepName, "stepNames": tr.StepNames})
	var b bytes.Buffer
	err = t.Execute(&b, map[string]any{
		"Rec": rec, "Failure": f, "Trace": tr, "Kind": f.Kind, "Message": f.Message,
		"Mode": rec.Mode, "Replay": replayCommand(rec, f.Token), "Stale": stale, "Explain": explain(tr, changed),
		"CSS": template.CSS(css), "JS": template.JS(script), "JSON": template.JS(js),
	})
	return b.Bytes(), err
}
