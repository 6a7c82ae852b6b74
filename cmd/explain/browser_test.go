package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The counterexample page in a real browser: headless Chromium, driven by
// its own command line. For three catalog counterexamples (the ring in
// the plain mode, the deque in the weak mode, the idle protocol in the
// weak mode) cmd/explain writes the page; Chromium loads it and dumps the
// DOM after the page's script ran, which must match the trace file
// written beside the page: as many step rows, each with its goroutine and
// operation, and in the weak mode an arrow for every stale read, drawn.
// With the fragment #selftest the page presses the arrow keys itself and
// writes where the highlight went; the dumped DOM must say it moved as
// the keys say. Play mode (#play:clicks) is played on two of the pages:
// the recorded run's clicks reach the failure, undo takes clicks back,
// another choice shows the run the engine traced for it (checkPlay).
// The weak pages' graphs draw the seq_cst order. A screenshot of each page goes to the test's artifact
// directory (go test -artifacts -outputdir DIR keeps it; DIR must exist).
//
// Without Chromium the test is skipped, saying so; cmd/verify lists it
// among the skipped tests. It lives here, beside the command it drives,
// rather than in package explore, so that its minute is not added to that
// package's test time.

// browserPages are the counterexamples the test loads.
// Play mode is played on one page of each mode (each play costs five
// more page loads).
var browserPages = []struct {
	mutant, what, view string
	play               bool
}{
	{"ring-steal-while-stealing", "ring, plain", "ring: head [0|0] (steal|real), tail 0", true},
	{"deque-take-no-fence", "deque, weak", "", true},
	{"idle-notify-no-fence", "idle protocol, weak", "", false},
	{"ring-tail-relaxed", "ring, weak, a data race", "", false},
}

// DocsPNGEnv, set, makes the test write the deque page's screenshot to
// docs/explore-page.png (docs/auditing.md shows it).
const docsPNGEnv = "WSCHED_DOCS_PNG"

// chromium is the browser's path: WSCHED_CHROMIUM, or Debian's and
// others' usual places; WSCHED_CHROMIUM=off means none.
func chromium() string {
	if os.Getenv("WSCHED_CHROMIUM") == "off" {
		return ""
	}
	for _, p := range []string{os.Getenv("WSCHED_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// moduleRoot is two directories above the test's working directory, which
// go test makes the package's own (cmd/explain); it does not ask the
// binary where its source was, which a -trimpath build does not know.
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatalf("the module's go.mod is not two directories above the working directory: %v", err)
	}
	if !strings.HasPrefix(string(b), "module github.com/wsched/wsched\n") {
		t.Fatalf("%s/go.mod is not wsched's", root)
	}
	return root
}

func TestCounterexamplePagesInChromium(t *testing.T) {
	browser := chromium()
	if browser == "" {
		t.Skip("SKIPPED: Chromium is not installed (apt-get install chromium, or set WSCHED_CHROMIUM to its path): the counterexample pages were NOT checked in a browser")
	}
	if testing.Short() {
		t.Skip("SKIPPED in -short mode: the pages were NOT checked in a browser")
	}
	root := moduleRoot(t)
	out := t.ArtifactDir()
	explain := filepath.Join(t.TempDir(), "explain")
	build := exec.Command("go", "build", "-o", explain, "./cmd/explain")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/explain: %v\n%s", err, b)
	}
	for _, p := range browserPages {
		t.Run(p.mutant, func(t *testing.T) {
			page, tracePath := explainPage(t, root, explain, p.mutant, out)
			var tr pageTrace
			b, err := os.ReadFile(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &tr); err != nil {
				t.Fatalf("%s: %v", tracePath, err)
			}
			dom := dumpDOM(t, browser, "file://"+page)
			checkDOM(t, dom, &tr)
			if p.view != "" {
				// The scenario's view, at the first step that has
				// one (it is registered once the ring exists).
				k := 0
				for _, s := range tr.Steps {
					if len(s.Views) > 0 {
						k = s.N
						break
					}
				}
				at := dumpDOM(t, browser, fmt.Sprintf("file://%s#step-%d", page, k))
				if k == 0 || !strings.Contains(at, `<div class="view">`+p.view) {
					t.Fatalf("the scenario's view %q is not on the page at step %d", p.view, k)
				}
			}
			self := dumpDOM(t, browser, "file://"+page+"#selftest")
			checkSelfTest(t, self, len(tr.Steps))
			checkGraph(t, dumpDOM(t, browser, "file://"+page+"#graph"), &tr, false)
			checkGraph(t, dumpDOM(t, browser, "file://"+page+"#graph-relevant"), &tr, true)
			if p.play {
				checkPlay(t, browser, page, &tr)
			}
			shot := filepath.Join(out, p.mutant+".png")
			screenshot(t, browser, "file://"+page, shot, "1400,1000")
			t.Logf("%s (%s): %d steps, %d stale reads, %d synchronises-with edges; DOM matches the trace; keys move the highlight; screenshot %s",
				p.mutant, p.what, len(tr.Steps), tr.stale(), len(tr.SW), shot)
			if p.mutant == "deque-take-no-fence" && os.Getenv(docsPNGEnv) != "" {
				png := filepath.Join(root, "docs", "explore-page.png")
				screenshot(t, browser, "file://"+page+"#stale", png, "1100,860")
				t.Logf("wrote %s", png)
			}
		})
	}
}

// pageTrace is the part of the trace file the test reads.
type pageTrace struct {
	Weak       bool     `json:"weak"`
	Goroutines []string `json:"goroutines"`
	Steps      []struct {
		N         int      `json:"n"`
		G         int      `json:"g"`
		Op        string   `json:"op"`
		ReadsFrom int      `json:"reads_from"`
		Stale     bool     `json:"stale"`
		Views     []string `json:"views"`
		Value     string   `json:"value"`
		Loc       int      `json:"loc"`
		Skipped   []int    `json:"skipped"`
		SWs       []int    `json:"sw"`
		Missing   string   `json:"missing"`
		Race      int      `json:"race"`
		Preempt   bool     `json:"preempt"`
	} `json:"steps"`
	SW   []struct{ From, To int } `json:"sw"`
	SC   []int                    `json:"sc"`
	Play *struct {
		Runs    []playRun `json:"runs"`
		Cut     string    `json:"cut"`
		Strings []string  `json:"strings"`
	} `json:"play"`
}

// playRun is a run of the play tree (explore/internal/engine/play.go).
type playRun struct {
	Parent, Fork, From int
	Goroutines         []string
	Steps              []struct {
		N, G int
		T, A int // indexes into the tree's Strings: the text, the source line
	}
	Decisions []struct {
		Step     int
		Kind     string
		Options  []int
		Chosen   int
		Children map[string]int
	}
	Fails   bool
	Outcome string
}

func (tr *pageTrace) stale() int {
	n := 0
	for _, s := range tr.Steps {
		if s.Stale {
			n++
		}
	}
	return n
}

// explainPage runs cmd/explain for mutant, with the pages written to dir,
// and returns the page's and the trace's paths.
func explainPage(t *testing.T, root, explain, mutant, dir string) (page, trace string) {
	t.Helper()
	cmd := exec.Command(explain, mutant)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WSCHED_EXPLORE_EVIDENCE="+dir)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("explain %s: %v\n%s", mutant, err, b)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "page:"); ok {
			page = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(l, "trace:"); ok {
			trace = strings.TrimSpace(v)
		}
	}
	if page == "" || trace == "" || !strings.Contains(string(b), "replay: go run ./cmd/mutant "+mutant+" -- env ") {
		t.Fatalf("explain %s printed no page, trace or replay command:\n%s", mutant, b)
	}
	return page, trace
}

func runChromium(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000"}
	cmd := exec.Command(browser, append(base, args...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("chromium %v: no answer in 2 minutes", args)
	}
	return []byte(stdout.String())
}

func dumpDOM(t *testing.T, browser, url string) string {
	t.Helper()
	return string(runChromium(t, browser, "--dump-dom", url))
}

func screenshot(t *testing.T, browser, url, path, size string) {
	t.Helper()
	runChromium(t, browser, "--hide-scrollbars", "--window-size="+size, "--screenshot="+path, url)
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("no screenshot at %s: %v", path, err)
	}
}

var (
	stepRow  = regexp.MustCompile(`<tr class="step[^"]*" id="step-(\d+)" data-step="(\d+)" data-goroutine="(\d+)" data-op="([^"]*)"([^>]*)>`)
	attr     = func(name string) *regexp.Regexp { return regexp.MustCompile(` ` + name + `="([^"]*)"`) }
	staleArr = regexp.MustCompile(`<path class="arrow reads-from stale" data-from="(\d+)" data-to="(\d+)"[^>]* d="([^"]*)"`)
	rfArr    = regexp.MustCompile(`<path class="arrow reads-from[^"]*" data-from="(\d+)" data-to="(\d+)"`)
	swArr    = regexp.MustCompile(`<path class="arrow sw" data-from="(\d+)" data-to="(\d+)"[^>]* d="([^"]*)"`)
)

// checkDOM compares the page as the browser built it with the trace.
func checkDOM(t *testing.T, dom string, tr *pageTrace) {
	t.Helper()
	rows := stepRow.FindAllStringSubmatch(dom, -1)
	if len(rows) != len(tr.Steps) || len(rows) == 0 {
		t.Fatalf("%d step rows in the DOM, %d steps in the trace", len(rows), len(tr.Steps))
	}
	for i, r := range rows {
		s := tr.Steps[i]
		n, _ := strconv.Atoi(r[2])
		g, _ := strconv.Atoi(r[3])
		if n != s.N || n != i+1 || g != s.G || r[4] != s.Op {
			t.Fatalf("row %d: step %d goroutine %d op %q; the trace's step: %+v", i+1, n, g, r[4], s)
		}
		rf := attr("data-reads-from").FindStringSubmatch(r[5])
		switch {
		case s.ReadsFrom >= 0 && (rf == nil || rf[1] != strconv.Itoa(s.ReadsFrom)):
			t.Fatalf("step %d reads from step %d, the row says %v", n, s.ReadsFrom, rf)
		case s.Stale != strings.Contains(r[5], `data-stale="true"`):
			t.Fatalf("step %d: stale %v in the trace, the row's attributes: %s", n, s.Stale, r[5])
		case (s.Missing != "") != strings.Contains(r[5], `data-missing-sw="true"`):
			t.Fatalf("step %d: missing synchronises-with %q in the trace, the row's attributes: %s", n, s.Missing, r[5])
		case s.Race > 0 && !strings.Contains(r[5], fmt.Sprintf(`data-race="%d"`, s.Race)), s.Race == 0 && strings.Contains(r[5], `data-race=`):
			t.Fatalf("step %d: races with step %d in the trace, the row's attributes: %s", n, s.Race, r[5])
		}
	}
	// A data race is two rows, each naming the other, and a line of
	// #explain.
	races := 0
	for _, s := range tr.Steps {
		if s.Race > 0 {
			races++
		}
	}
	if races != 0 && races != 2 || races == 2 && !strings.Contains(dom, `class="race">data race: step`) {
		t.Fatalf("%d rows of a data race, or no #explain line for it", races)
	}
	// The page opens at the failure: the last step is the current one.
	last := len(tr.Steps)
	if !strings.Contains(dom, fmt.Sprintf(`class="step current" id="step-%d"`, last)) || !strings.Contains(dom, fmt.Sprintf(`data-current="%d"`, last)) {
		t.Fatalf("the page did not open at the failure, step %d (or its script did not run)", last)
	}
	// An arrow for every stale read, with its path drawn by the script.
	stale := map[string]bool{}
	for _, m := range staleArr.FindAllStringSubmatch(dom, -1) {
		if m[3] == "" || !strings.HasPrefix(m[3], "M") {
			t.Fatalf("the arrow of stale read %s -> %s was not drawn (d=%q)", m[1], m[2], m[3])
		}
		stale[m[2]] = true
	}
	for _, s := range tr.Steps {
		if s.Stale && !stale[strconv.Itoa(s.N)] {
			t.Fatalf("stale read at step %d has no arrow", s.N)
		}
	}
	if len(stale) != tr.stale() {
		t.Fatalf("%d stale-read arrows, %d stale reads", len(stale), tr.stale())
	}
	// A reads-from arrow for every read of the weak mode, drawn or not
	// (reads of a goroutine's own store or of a first value are hidden
	// until asked for).
	reads := 0
	for _, s := range tr.Steps {
		if s.ReadsFrom >= 0 {
			reads++
		}
	}
	if got := len(rfArr.FindAllStringSubmatch(dom, -1)); got != reads {
		t.Fatalf("%d reads-from arrows, %d reads in the trace", got, reads)
	}
	if got := len(swArr.FindAllStringSubmatch(dom, -1)); got != len(tr.SW) {
		t.Fatalf("%d synchronises-with arrows, %d edges in the trace", got, len(tr.SW))
	}
	if tr.Weak && tr.stale() == 0 && len(tr.SW) == 0 {
		t.Logf("a weak trace without stale reads or synchronises-with edges")
	}
}

var selfTest = regexp.MustCompile(`(?s)<pre id="selftest" data-result="(\w+)">(.*?)</pre>`)

// checkSelfTest reads what the page's self-test wrote: the arrow keys,
// Home and End moved the highlight where they should.
func checkSelfTest(t *testing.T, dom string, steps int) {
	t.Helper()
	m := selfTest.FindStringSubmatch(dom)
	if m != nil {
		m[2] = html.UnescapeString(m[2])
	}
	if m == nil {
		t.Fatal("the self-test wrote nothing: the page's script did not run with #selftest")
	}
	if m[1] != "pass" {
		t.Fatalf("the keys did not move the highlight as they should:\n%s", m[2])
	}
	if want := fmt.Sprintf("End -> %d", steps); !strings.Contains(m[2], want) {
		t.Fatalf("self-test %q does not end at step %d", m[2], steps)
	}
}

var (
	graphNode = regexp.MustCompile(`<g class="node[^"]*" data-step="(\d+)" data-goroutine="(\d+)"`)
	graphEdge = regexp.MustCompile(`<path class="edge (\w+)" data-from="(\d+)" data-to="(\d+)" d="M`)
)

// checkGraph compares the execution graph (#graph) the page drew with the
// trace: a node per step (per relevant step: the last one, the races,
// the missing edges and the stale reads, and the steps they read, skipped
// or synchronise with), in its goroutine's column; program order between
// each goroutine's consecutive steps; a reads-from edge for each read of
// a store (missing-class when the read misses its synchronises-with),
// every synchronises-with edge, a race edge per race, and the
// modification order of each location, all between steps shown.
func checkGraph(t *testing.T, dom string, tr *pageTrace, relevant bool) {
	t.Helper()
	if !strings.Contains(dom, `<body class="graph`) && !regexp.MustCompile(`<body[^>]* class="[^"]*graph`).MatchString(dom) {
		t.Fatal("#graph did not open the execution graph")
	}
	last := len(tr.Steps)
	keep := map[int]bool{}
	add := func(k int) {
		if k > 0 && k <= last {
			keep[k] = true
		}
	}
	for _, s := range tr.Steps {
		if relevant && s.Preempt {
			add(s.N)
			add(s.N - 1)
		}
		if !relevant || s.Race > 0 || s.Missing != "" || s.Stale || s.N == last {
			add(s.N)
			if relevant {
				add(s.Race)
				add(s.ReadsFrom)
				for _, k := range s.Skipped {
					add(k)
				}
				for _, k := range s.SWs {
					add(k)
				}
			}
		}
	}
	nodes := graphNode.FindAllStringSubmatch(dom, -1)
	if len(nodes) != len(keep) {
		t.Fatalf("graph (relevant %v): %d nodes, want %d", relevant, len(nodes), len(keep))
	}
	for _, m := range nodes {
		n, _ := strconv.Atoi(m[1])
		g, _ := strconv.Atoi(m[2])
		if !keep[n] || tr.Steps[n-1].G != g {
			t.Fatalf("graph (relevant %v): node %d in column %d; the trace's step: %+v", relevant, n, g, tr.Steps[n-1])
		}
	}
	want := map[string]int{}
	prev := map[int]int{}
	stores := map[int][]int{}
	for _, s := range tr.Steps {
		if !keep[s.N] {
			continue
		}
		if prev[s.G] > 0 {
			want["po"]++
		}
		prev[s.G] = s.N
		if s.ReadsFrom > 0 && keep[s.ReadsFrom] && s.ReadsFrom != s.N {
			if s.Missing != "" {
				want["missing"]++
			} else {
				want["rf"]++
			}
		}
		for _, k := range s.SWs {
			if keep[k] {
				want["sw"]++
			}
		}
		if s.Race > 0 && s.Race < s.N && keep[s.Race] {
			want["race"]++
		}
		if s.Loc > 0 && s.Value != "" {
			stores[s.Loc] = append(stores[s.Loc], s.N)
		}
	}
	for _, st := range stores {
		want["mo"] += len(st) - 1
	}
	sc := 0
	for _, k := range tr.SC {
		if keep[k] {
			sc++
		}
	}
	if sc > 0 {
		want["sc"] = sc - 1
	}
	got := map[string]int{}
	for _, m := range graphEdge.FindAllStringSubmatch(dom, -1) {
		a, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[3])
		if !keep[a] || !keep[b] {
			t.Fatalf("graph (relevant %v): a %s edge %d -> %d to a step not shown", relevant, m[1], a, b)
		}
		got[m[1]]++
	}
	for _, k := range []string{"po", "rf", "missing", "sw", "race", "mo", "sc"} {
		if got[k] != want[k] {
			t.Fatalf("graph (relevant %v): %d %s edges, want %d", relevant, got[k], k, want[k])
		}
	}
	t.Logf("graph (relevant %v): %d nodes, edges %v", relevant, len(nodes), got)
}

// playClicks are the clicks that replay run 0 of the play tree, the
// recorded run, to its end, as the page offers them: at each step the
// goroutine that goes next (the decision's choice, or the only one that
// can go), then in the weak mode the store a read reads, where the run
// chose one. pos[i] is the step the page shows after click i.
func playClicks(r *playRun) (clicks []string, pos []int) {
	di := 0
	for n := 1; n <= len(r.Steps); n++ {
		picked := false
		for di < len(r.Decisions) && r.Decisions[di].Step == n-1 {
			d := r.Decisions[di]
			if d.Kind == "s" && !picked {
				clicks, pos = append(clicks, fmt.Sprintf("g%d", r.Steps[n-1].G)), append(pos, n-1)
			}
			picked = true
			clicks, pos = append(clicks, fmt.Sprintf("%s%d", d.Kind, d.Chosen)), append(pos, n-1)
			di++
		}
		if !picked {
			clicks, pos = append(clicks, fmt.Sprintf("g%d", r.Steps[n-1].G)), append(pos, n-1)
		}
		pos[len(pos)-1] = n
	}
	return clicks, pos
}

var (
	playRow    = regexp.MustCompile(`<tr class="play-step[^"]*" data-step="(\d+)" data-goroutine="(\d+)" data-run="(\d+)"><td class="n">\d+</td>(.*?)</tr>`)
	playOp     = regexp.MustCompile(`<div class="op">(.*?)</div>`)
	playStatus = regexp.MustCompile(`<span id="play-status" data-state="(\w*)">(.*?)</span>`)
	playLog    = regexp.MustCompile(`(?s)<pre id="play-log" data-result="(\w+)">(.*?)</pre>`)
	playPos    = regexp.MustCompile(`data-play-pos="(\d+)" data-play-run="(\d+)"`)
)

// checkPlay plays the page in Chromium (#play:clicks, real clicks on the
// page's buttons) and compares what it shows with the trace file: the
// recorded run's clicks reach the failure with every step of the trace
// in order; undo takes clicks back; a choice the recording did not make
// shows the steps of the run the engine traced for it; a choice no run
// took is disabled.
func checkPlay(t *testing.T, browser, page string, tr *pageTrace) {
	t.Helper()
	if tr.Play == nil || len(tr.Play.Runs) < 2 {
		t.Fatalf("the page has no play tree (or only the recorded run): cmd/explain asks for one")
	}
	root := &tr.Play.Runs[0]
	clicks, pos := playClicks(root)
	play := func(cl []string) string {
		return dumpDOM(t, browser, "file://"+page+"#play:"+strings.Join(cl, ","))
	}
	state := func(dom string) (pos, run int) {
		m := playPos.FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("the page did not say where play is (data-play-pos)")
		}
		pos, _ = strconv.Atoi(m[1])
		run, _ = strconv.Atoi(m[2])
		return
	}
	logOK := func(dom string, want string) {
		m := playLog.FindStringSubmatch(dom)
		if m == nil || m[1] != want {
			t.Fatalf("play log %v, want %s", m, want)
		}
	}
	// The recorded run, to the failure.
	dom := play(clicks)
	logOK(dom, "pass")
	rows := playRow.FindAllStringSubmatch(dom, -1)
	if len(rows) != len(tr.Steps) {
		t.Fatalf("play: %d steps shown after the recorded run's %d clicks, %d in the trace", len(rows), len(clicks), len(tr.Steps))
	}
	for i, m := range rows {
		g, _ := strconv.Atoi(m[2])
		op := playOp.FindStringSubmatch(m[4])
		if m[1] != strconv.Itoa(i+1) || g != tr.Steps[i].G || m[3] != "0" || op == nil || html.UnescapeString(op[1]) != tr.Play.Strings[root.Steps[i].T] {
			t.Fatalf("play: row %d is %v; the recorded step: %+v", i+1, m[1:4], root.Steps[i])
		}
	}
	st := playStatus.FindStringSubmatch(dom)
	if st == nil || st[1] != "failure" || !strings.Contains(html.UnescapeString(st[2]), "the failure is reached: "+root.Outcome) {
		t.Fatalf("play: the status after the recorded run is %v, want the failure reached", st)
	}
	// Undo, three times.
	dom = play(append(append([]string(nil), clicks...), "undo", "undo", "undo"))
	logOK(dom, "pass")
	if p, run := state(dom); p != pos[len(pos)-4] || run != 0 || playStatus.FindStringSubmatch(dom)[1] != "choosing" {
		t.Fatalf("play: after three undos at step %d (run %d), want step %d of run 0, choosing", p, run, pos[len(pos)-4])
	}
	// A choice the recording did not make: the last decision of the
	// recorded run with a child, so that the path to it is long.
	alt := -1
	for i, d := range root.Decisions {
		if len(d.Children) > 0 && d.Kind == "g" {
			alt = i
		}
	}
	if alt < 0 {
		t.Fatalf("play: the recorded run has no goroutine decision with another choice run")
	}
	d := root.Decisions[alt]
	k := clicksBefore(root, alt) // the clicks before decision alt's
	var o string
	var child int
	for o, child = range d.Children {
		break
	}
	dom = play(append(append([]string(nil), clicks[:k]...), "g"+o))
	logOK(dom, "pass")
	p, run := state(dom)
	ch := &tr.Play.Runs[child]
	if run != child || ch.From != d.Step+1 {
		t.Fatalf("play: choosing g%s at decision %d went to run %d at step %d, want run %d from step %d", o, alt, run, p, child, d.Step+1)
	}
	if p == d.Step+1 {
		last := playRow.FindAllStringSubmatch(dom, -1)
		m := last[len(last)-1]
		op := playOp.FindStringSubmatch(m[4])
		if m[3] != strconv.Itoa(child) || op == nil || html.UnescapeString(op[1]) != tr.Play.Strings[ch.Steps[0].T] {
			t.Fatalf("play: the step after choosing g%s is %v, want run %d's %+v", o, m[1:4], child, ch.Steps[0])
		}
	}
	t.Logf("play: %d runs in the tree (cut: %q); the recorded run in %d clicks reaches the failure; undo x3 back to step %d; g%s at decision %d (step %d) goes to run %d (%s)",
		len(tr.Play.Runs), tr.Play.Cut, len(clicks), pos[len(pos)-4], o, alt, d.Step, child, ch.Outcome)
	// A choice no run took is disabled: a decision of a run off the
	// recorded one (the tree runs every other choice of the recorded
	// run first, then what its budget leaves of theirs), reached by
	// that run's own clicks.
	for ri := 1; ri < len(tr.Play.Runs); ri++ {
		full := fullRun(tr, ri)
		for i := tr.Play.Runs[ri].Fork + 1; i < len(full.Decisions); i++ {
			dd := full.Decisions[i]
			if dd.Step >= len(full.Steps) {
				continue
			}
			for _, opt := range dd.Options {
				if opt == dd.Chosen || dd.Children[strconv.Itoa(opt)] != 0 {
					continue
				}
				cl, _ := playClicks(full)
				choice := fmt.Sprintf("%s%d", dd.Kind, opt)
				dom = play(append(append([]string(nil), cl[:clicksBefore(full, i)]...), choice))
				m := playLog.FindStringSubmatch(dom)
				if m == nil || m[1] != "fail" || !strings.Contains(m[2], choice+": no enabled button") || strings.Count(m[2], "\n") != clicksBefore(full, i) {
					t.Fatalf("play: the choice %s at run %d's decision %d, which no run took, was not disabled (or the clicks before it failed): %v", choice, ri, i, m)
				}
				t.Logf("play: %s at run %d's decision %d (step %d; no run took it) is disabled, after %d clicks along run %d", choice, ri, i, dd.Step, clicksBefore(full, i), ri)
				return
			}
		}
	}
	if tr.Play.Cut != "" {
		t.Fatalf("play: the tree was cut (%s), yet every decision's every choice has a run", tr.Play.Cut)
	}
}

// fullRun is run ri of the play tree with the steps it shares with its
// ancestors: every step from the first.
func fullRun(tr *pageTrace, ri int) *playRun {
	r := tr.Play.Runs[ri]
	if r.Parent >= 0 {
		p := fullRun(tr, r.Parent)
		r.Steps = append(append(r.Steps[:0:0], p.Steps[:r.From-1]...), r.Steps...)
	}
	return &r
}

// clicksBefore is how many of playClicks(r)'s clicks come before the
// click of r's decision i.
func clicksBefore(r *playRun, i int) int {
	cl, _ := playClicks(r)
	di, c := 0, 0
	for n := 1; n <= len(r.Steps); n++ {
		picked := false
		for di < len(r.Decisions) && r.Decisions[di].Step == n-1 {
			if r.Decisions[di].Kind == "s" && !picked {
				c++
			}
			picked = true
			if di == i {
				return c
			}
			c++
			di++
		}
		if !picked {
			c++
		}
	}
	return len(cl)
}
