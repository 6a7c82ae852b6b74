package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Printing a traced schedule: as text (the test log) and as data (the
// page, page.go, and the trace file beside it).
//
// Each step has one number: an operation, a fence, a wait, a wake. A
// switch between goroutines is a line of its own, unnumbered, marked when
// it is a preemption. An operation prints with the ordering it was called
// with (a compare-and-swap with both: CompareAndSwapAcqRelRelaxed) and its
// values by what they are: a word its declaration says is packed as
// [high|low] (the ring's head, [steal|real]), a word declared as a bitmap
// or mask in hex, a pointer as p1, p2, ... in order of first appearance,
// anything else as Go prints it. Every read names the store it read
// ("from 12 (thief)"): in the weak mode the one the model chose, and a
// read of a store other than the latest says the newer ones it skipped
// and why it may (weaktrace.go); otherwise the location's last store.
// The synchronises-with edges follow the steps, and the missing ones: a
// read of another goroutine's store where one side orders nothing. A
// data race is two steps, each naming the other.

// TraceData is a traced schedule as data.
type TraceData struct {
	Scenario   string   `json:"scenario"`
	Weak       bool     `json:"weak"`
	Goroutines []string `json:"goroutines"`
	Locations  []string `json:"locations"` // Step.Loc-1 indexes it
	// Objects says which type each object name's prefix stands for
	// (traceobj.go): "n = treiber.node[int], i = int".
	Objects string `json:"objects,omitempty"`
	// Play is the play tree (play.go), when Options.Play asked for it.
	Play  *PlayData   `json:"play,omitempty"`
	Steps []traceStep `json:"steps"`
	SW    []swEdge    `json:"sw,omitempty"`
	// SC is, in the weak mode, the steps of the seq_cst events (SC
	// accesses and fences) in a seq_cst order the execution is
	// consistent with (weak.Model.SCOrder: one that extends psc).
	SC []int `json:"sc,omitempty"`
	// Sources holds the lines around each step's source line, by
	// "file:line".
	Sources map[string]srcContext `json:"sources"`
}

// srcContext is a few lines of source; First is the first one's number.
type srcContext struct {
	First int      `json:"first"`
	Lines []string `json:"lines"`
}

type traceStep struct {
	N      int    `json:"n"`
	G      int    `json:"g"`
	Kind   string `json:"kind"` // "op", "fence", "wait", "wake", "yield"
	Op     string `json:"op"`
	Text   string `json:"text"`
	Loc    int    `json:"loc,omitempty"`   // 1 + index in Locations; 0: none
	Value  string `json:"value,omitempty"` // the location's value after the step, if it wrote one
	Read   string `json:"read,omitempty"`  // a load's value read
	At     string `json:"at"`
	Src    string `json:"src,omitempty"`
	Switch string `json:"switch,omitempty"` // the switch before the step: "preempted: thief runs"
	// Views are the scenario's views after the step (View).
	Views []string `json:"views,omitempty"`
	// Preempt marks a step that runs because of a preemption.
	Preempt bool `json:"preempt,omitempty"`
	// The weak mode: the step that wrote the store a read read (0: the
	// location's first value; -1: not a read), whether it was not the
	// latest, the newer stores skipped, why, and the releases the step
	// synchronises with.
	ReadsFrom int    `json:"reads_from"`
	Stale     bool   `json:"stale,omitempty"`
	Skipped   []int  `json:"skipped,omitempty"`
	Why       string `json:"why,omitempty"`
	SW        []int  `json:"sw,omitempty"`
	// Before is how many newer stores a store went before in its
	// location's modification order (0: it went last).
	Before int `json:"before,omitempty"`
	// Missing names a missing synchronises-with edge: the read read
	// another goroutine's store, and one side of it orders nothing (an
	// acquire read of a store that carries no release, or a relaxed read
	// of a release store that no acquire fence follows).
	Missing string `json:"missing,omitempty"`
	// Race, on both accesses of a data race, is the other one's step.
	Race int `json:"race,omitempty"`
}

type swEdge struct{ From, To int }

// formatTrace prints a traced schedule as numbered steps.
func (r *run) formatTrace() string {
	d := r.exportTrace()
	var b strings.Builder
	width := 4
	for _, n := range d.Goroutines {
		width = max(width, len(n))
	}
	fmt.Fprintf(&b, "goroutines: ")
	for i, n := range d.Goroutines {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d=%s", i, n)
	}
	b.WriteString("\n")
	if d.Objects != "" {
		fmt.Fprintf(&b, "objects: %s\n", d.Objects)
	}
	lw := 0
	for _, l := range d.Locations {
		lw = max(lw, min(len(l), 24))
	}
	for _, s := range d.Steps {
		if s.Switch != "" {
			fmt.Fprintf(&b, "       ---- %s ----\n", s.Switch)
		}
		from := ""
		if s.ReadsFrom >= 0 {
			from = "from " + d.shortName(s.ReadsFrom)
		}
		loc := ""
		if s.Loc > 0 {
			loc = d.Locations[s.Loc-1]
		}
		fmt.Fprintf(&b, "%5d  %-*s  %-34s  %-*s  %-36s  %-*s", s.N, width, d.Goroutines[s.G], s.At, lw, loc, s.Text, width+12, from)
		if s.Src != "" && s.Kind != "wake" {
			fmt.Fprintf(&b, "  | %s", s.Src)
		}
		b.WriteString("\n")
		if s.Race > 0 {
			fmt.Fprintf(&b, "%5s  %-*s  DATA RACE with %s: neither access happens before the other\n", "", width, "", d.StepName(s.Race))
		}
		if s.Missing != "" {
			fmt.Fprintf(&b, "%5s  %-*s  missing synchronises-with: %s\n", "", width, "", s.Missing)
		}
		if s.Stale {
			fmt.Fprintf(&b, "%5s  %-*s  reads %s, not the latest: skips %s; %s\n", "", width, "", d.StepName(s.ReadsFrom), d.StepNames(s.Skipped), s.Why)
		}
		if s.Before > 0 {
			fmt.Fprintf(&b, "%5s  %-*s  goes before the newest %d store(s) of its location in modification order\n", "", width, "", s.Before)
		}
	}
	if len(d.SW) > 0 {
		b.WriteString("synchronises-with (release or release fence -> acquire or acquire fence):\n")
		for _, e := range d.SW {
			fmt.Fprintf(&b, "  step %d (%s, %s) -> step %d (%s, %s)\n", e.From, d.Goroutines[d.Steps[e.From-1].G], d.Steps[e.From-1].Op, e.To, d.Goroutines[d.Steps[e.To-1].G], d.Steps[e.To-1].Op)
		}
	}
	if len(d.SC) > 0 {
		parts := make([]string, len(d.SC))
		for i, n := range d.SC {
			parts[i] = d.shortName(n)
		}
		fmt.Fprintf(&b, "seq_cst order (one the execution is consistent with): %s\n", strings.Join(parts, " < "))
	}
	var missing []string
	for _, s := range d.Steps {
		if s.Missing != "" {
			missing = append(missing, s.Missing)
		}
	}
	if len(missing) > 0 {
		b.WriteString("missing synchronises-with (a read of another goroutine's store that orders nothing):\n")
		for _, m := range missing {
			fmt.Fprintf(&b, "  %s\n", m)
		}
	}
	return b.String()
}

// shortName is the store a read read, for a trace line: "step 12
// (thief)", or "first value".
func (d *TraceData) shortName(n int) string {
	if n <= 0 || n > len(d.Steps) {
		return "first value"
	}
	return fmt.Sprintf("%d (%s)", n, d.Goroutines[d.Steps[n-1].G])
}

// StepName names step n for the page: its number and goroutine.
func (d *TraceData) StepName(n int) string {
	if n <= 0 || n > len(d.Steps) {
		return "the location's first value"
	}
	return fmt.Sprintf("step %d (%s)", n, d.Goroutines[d.Steps[n-1].G])
}

// StepNames is StepName of each of ns.
func (d *TraceData) StepNames(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = d.StepName(n)
	}
	return strings.Join(parts, ", ")
}

// exportTrace is the run's trace as data.
func (r *run) exportTrace() *TraceData {
	d := &TraceData{Weak: r.mem != nil, Sources: map[string]srcContext{}}
	for _, t := range r.threads {
		d.Goroutines = append(d.Goroutines, t.name)
	}
	files := map[string][]string{}
	ot := r.newObjectTable()
	locs := map[uintptr]*locInfo{}
	named := map[string]int{}
	sw := ""
	preempt := false
	// lastWrite is each location's last store's step, the store a read
	// reads when the weak mode does not say (the sequentially consistent
	// mode, and the weak mode's plain cells, which in a race-free
	// execution read the latest store).
	lastWrite := map[uintptr]int{}
	for _, s := range r.trace {
		if s.kind == stepSwitch {
			to := r.threads[s.to].name
			switch {
			case s.timer:
				sw = fmt.Sprintf("preempted: %s's timeout fires (virtual time %v)", to, time.Duration(s.when))
			case s.preempt:
				sw = "preempted: " + to + " runs"
			default:
				sw = to + " runs"
			}
			preempt = s.preempt
			continue
		}
		ts := traceStep{N: len(d.Steps) + 1, G: s.thread, Op: s.op, At: location(s.at), Switch: sw, Preempt: preempt, ReadsFrom: -1, Views: s.views}
		sw, preempt = "", false
		var li *locInfo
		if s.loc != 0 {
			li = locs[s.loc]
			if li == nil {
				li = newLocInfo(s, len(locs)+1, files, ot)
				// Two locations the code names alike (the slots of
				// a ring, r.slots[i&r.mask]) are told apart by
				// the order they appear in.
				if named[li.name]++; named[li.name] > 1 {
					li.name = fmt.Sprintf("%s#%d", li.name, named[li.name])
				}
				locs[s.loc] = li
				d.Locations = append(d.Locations, li.name)
			}
			ts.Loc = li.n
		}
		switch s.kind {
		case stepWait:
			ts.Kind, ts.Text = "wait", "waits for "+s.op
		case stepWake:
			ts.Kind, ts.Text, ts.At = "wake", "wakes: ready", location(s.at)
			if !s.ok {
				ts.Text = "wakes: timed out"
			}
		default:
			ts.Kind = "op"
			switch {
			case strings.HasPrefix(s.op, "Fence"):
				ts.Kind = "fence"
			case s.op == "Gosched":
				ts.Kind = "yield"
			}
			ts.Text = s.op + formatArgs(s.args, s.derefs, ot, li)
			if v, ok := writtenValue(s.op, s.args); ok {
				ts.Value = formatValue(v, derefOf(s, v), ot, li)
			} else if strings.HasPrefix(s.op, "Load") && len(s.args) == 2 {
				ts.Read = formatValue(s.args[1], derefAt(s.derefs, 1), ot, li)
			}
		}
		if s.kind != stepWake {
			ts.Src = sourceLine(s.at, files)
			if s.at.File != "" {
				d.Sources[ts.At] = sourceContext(s.at, files, 3)
			}
		}
		if s.kind == stepOp && s.loc != 0 && readsLocation(s.op) && (s.w == nil || !s.w.read) {
			ts.ReadsFrom = lastWrite[s.loc]
		}
		if s.kind == stepOp && s.loc != 0 {
			if _, ok := writtenValue(s.op, s.args); ok || s.op == "Store" {
				lastWrite[s.loc] = ts.N
			}
		}
		if w := s.w; w != nil {
			if w.read {
				ts.ReadsFrom = w.from.Step
			}
			if w.race > 0 {
				ts.Race = w.race
				if w.race <= len(d.Steps) {
					d.Steps[w.race-1].Race = ts.N
				}
			}
			if (w.noRelease || w.noAcquire) && w.from.Step > 0 && w.from.Step <= len(d.Steps) {
				st := d.Steps[w.from.Step-1]
				who := fmt.Sprintf("step %d's %s (%s)", st.N, st.Op, d.Goroutines[st.G])
				if w.noRelease {
					ts.Missing = fmt.Sprintf("step %d's %s (%s) read %s: no release, so nothing before step %d is made visible by it", ts.N, s.op, d.Goroutines[s.thread], who, st.N)
				} else {
					ts.Missing = fmt.Sprintf("step %d's %s (%s) read %s: no acquire (nor an acquire fence after it), so nothing before step %d is made visible by it", ts.N, s.op, d.Goroutines[s.thread], who, st.N)
				}
			}
			ts.Stale, ts.Why, ts.Before = w.stale, w.why, w.before
			for _, x := range w.skipped {
				ts.Skipped = append(ts.Skipped, x.Step)
			}
			for _, x := range w.sw {
				ts.SW = append(ts.SW, x.Step)
				d.SW = append(d.SW, swEdge{x.Step, ts.N})
			}
		}
		d.Steps = append(d.Steps, ts)
	}
	d.Objects = ot.legend()
	if r.mem != nil && r.wt != nil {
		for _, e := range r.mem.m.SCOrder() {
			if n, ok := r.wt.sc[e]; ok && n <= len(d.Steps) {
				d.SC = append(d.SC, n)
			}
		}
	}
	return d
}

// readsLocation reports whether an operation reads its location: a
// load and every read-modify-write.
func readsLocation(op string) bool {
	for _, p := range []string{"Load", "Swap", "CompareAndSwap", "Add", "And", "Or"} {
		if strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}

// writtenValue is the value an operation leaves in its location: a
// store's, a swap's, a successful compare-and-swap's new value, an add's
// result, an and's or or's combination. ok is false for reads.
func writtenValue(op string, args []any) (v any, ok bool) {
	switch {
	case strings.HasPrefix(op, "Store") && len(args) >= 1:
		return args[0], true
	case strings.HasPrefix(op, "Swap") && len(args) >= 1:
		return args[0], true
	case strings.HasPrefix(op, "CompareAndSwap") && len(args) == 4:
		if args[3] == true {
			return args[1], true
		}
	case strings.HasPrefix(op, "Add") && len(args) == 3:
		return args[2], true
	case (strings.HasPrefix(op, "And") || strings.HasPrefix(op, "Or")) && len(args) == 3:
		mask, old := reflect.ValueOf(args[0]), reflect.ValueOf(args[2])
		if mask.Kind() != old.Kind() || !mask.CanInt() && !mask.CanUint() {
			return nil, false
		}
		nv := reflect.New(old.Type()).Elem()
		and := strings.HasPrefix(op, "And")
		if old.CanUint() {
			if and {
				nv.SetUint(old.Uint() & mask.Uint())
			} else {
				nv.SetUint(old.Uint() | mask.Uint())
			}
		} else {
			if and {
				nv.SetInt(old.Int() & mask.Int())
			} else {
				nv.SetInt(old.Int() | mask.Int())
			}
		}
		return nv.Interface(), true
	}
	return nil, false
}

// locInfo is a location as the trace names and prints it.
type locInfo struct {
	n      int
	name   string // the expression the code first used for it: "r.head"
	format byte   // 'p' packed halves, 'x' hex, 0 as Go prints it
}

// receiver finds the expression an atomic method was called on.
var receiver = regexp.MustCompile(`([A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\.[A-Za-z_]\w*)*)\.(?:Load|Store|Swap|CompareAndSwap|Add|And|Or|Take)[A-Za-z]*\(`)

func newLocInfo(s step, n int, files map[string][]string, ot *objectTable) *locInfo {
	li := &locInfo{n: n, name: fmt.Sprintf("loc%d", n)}
	src := fullSourceLine(s.at, files)
	if m := receiver.FindStringSubmatch(src); m != nil {
		li.name = m[1]
	}
	field := li.name
	// A location inside a named object is named by the object and the
	// field (traceobj.go), the same whichever expression reached it.
	if name, ok := ot.location(s.loc); ok {
		li.name = name
	}
	if i := strings.LastIndex(field, "."); i >= 0 {
		field = field[i+1:]
	}
	if i := strings.Index(field, "["); i >= 0 {
		field = field[:i]
	}
	li.format = declaredFormat(s.at.File, field, files)
	return li
}

// declaredFormat reads the declaration of the atomic field named field in
// the package of file: a comment that says the word packs two halves
// ("head packs [steal (upper 32) | real (lower 32)]") makes it 'p'; a
// field named or described as a bitmap or mask, 'x'.
func declaredFormat(file, field string, files map[string][]string) byte {
	if file == "" || field == "" {
		return 0
	}
	decl := regexp.MustCompile(`^\s*(?:\w+,\s*)*` + regexp.QuoteMeta(field) + `(?:,\s*\w+)*\s+(?:\[\])?atomic\.\w+`)
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(srcPath(file)), "*.go"))
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		lines := readLines(p, files)
		for i, l := range lines {
			if !decl.MatchString(l) {
				continue
			}
			comment := l
			for j := i - 1; j >= 0 && strings.HasPrefix(strings.TrimSpace(lines[j]), "//"); j-- {
				comment = lines[j] + "\n" + comment
			}
			lc := strings.ToLower(comment)
			switch {
			case strings.Contains(lc, " packs "):
				return 'p'
			case strings.Contains(strings.ToLower(field), "bitmap"), strings.Contains(strings.ToLower(field), "mask"),
				strings.Contains(lc, "bitmap"), strings.Contains(lc, " mask"):
				return 'x'
			}
			return 0
		}
	}
	return 0
}

func readLines(file string, files map[string][]string) []string {
	lines, ok := files[file]
	if !ok {
		b, err := os.ReadFile(srcPath(file))
		if err == nil {
			lines = strings.Split(string(b), "\n")
		}
		files[file] = lines
	}
	return lines
}

// formatArgs prints operation values (see formatValue); derefs are
// what pointers among them pointed to when the step ran.
func formatArgs(args []any, derefs []any, ot *objectTable, li *locInfo) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formatValue(a, derefAt(derefs, i), ot, li)
	}
	return " " + strings.Join(parts, " ")
}

func derefAt(derefs []any, i int) any {
	if i < len(derefs) {
		return derefs[i]
	}
	return nil
}

// derefOf is the deref of the argument of s that is v (the value a step
// wrote).
func derefOf(s step, v any) any {
	pv := reflect.ValueOf(v)
	if pv.Kind() != reflect.Pointer {
		return nil
	}
	for i, a := range s.args {
		if av := reflect.ValueOf(a); av.Kind() == reflect.Pointer && av.Type() == pv.Type() && av.Pointer() == pv.Pointer() {
			return derefAt(s.derefs, i)
		}
	}
	return nil
}

// formatValue prints one value: a pointer as its object's name
// (traceobj.go), with deref, what it pointed to, beside it; integers as
// their location's declaration says.
func formatValue(a any, deref any, ot *objectTable, li *locInfo) string {
	if s, ok := a.(string); ok {
		return s
	}
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.Invalid:
		return "nil"
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		name := ot.pointer(v)
		d, ok := deref.(string)
		if !ok && deref != nil {
			d = formatValue(deref, nil, ot, nil)
		}
		switch {
		case deref == nil:
		case strings.HasPrefix(d, "{"), strings.HasPrefix(d, "["):
			name += d
		default:
			name += "(" + d + ")"
		}
		return name
	case reflect.UnsafePointer:
		if v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("ptr%d", ot.unsafePointer(v.Pointer()))
	case reflect.Uint64, reflect.Uint32, reflect.Uint, reflect.Uintptr, reflect.Int64, reflect.Int32:
		if li == nil {
			break
		}
		var u uint64
		if v.CanUint() {
			u = v.Uint()
		} else {
			u = uint64(v.Int())
		}
		switch li.format {
		case 'p':
			if v.Type().Size() == 8 {
				return fmt.Sprintf("[%d|%d]", u>>32, uint32(u))
			}
			return fmt.Sprintf("[%d|%d]", uint32(u)>>16, uint16(u))
		case 'x':
			if v.Type().Size() == 4 {
				u = uint64(uint32(u))
			}
			return fmt.Sprintf("%#x", u)
		}
	}
	return fmt.Sprint(a)
}

// fullSourceLine is the text of the line at f, untrimmed of comments.
func fullSourceLine(f runtime.Frame, files map[string][]string) string {
	lines := readLines(f.File, files)
	if f.Line < 1 || f.Line > len(lines) {
		return ""
	}
	return lines[f.Line-1]
}

// sourceContext is the lines around f, k on each side.
func sourceContext(f runtime.Frame, files map[string][]string, k int) srcContext {
	lines := readLines(f.File, files)
	if f.Line < 1 || f.Line > len(lines) {
		return srcContext{}
	}
	lo, hi := max(0, f.Line-1-k), min(len(lines), f.Line+k)
	out := make([]string, 0, hi-lo)
	for _, l := range lines[lo:hi] {
		out = append(out, strings.ReplaceAll(l, "\t", "    "))
	}
	return srcContext{First: lo + 1, Lines: out}
}
