package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// failureKind says how a schedule failed.
type failureKind string

const (
	kindRace     failureKind = "data race"
	kindAssert   failureKind = "assertion"
	kindPanic    failureKind = "panic"
	kindDeadlock failureKind = "deadlock"
	kindStep     failureKind = "step budget"
	kindDiverged failureKind = "schedule diverged"
)

// Failure is a failed schedule.
type Failure struct {
	Kind    failureKind
	Message string
	Thread  string // the goroutine that found it
	Stack   string // for a panic: the panicking goroutine's stack
	// Token replays the schedule (see ParseToken); Trace is the schedule
	// as numbered steps.
	Token string
	Trace string
	// Schedule is how many schedules had run when this one failed, and
	// Preemptions how many preemptions it has.
	Schedule    int
	Preemptions int
}

func (f *Failure) Error() string { return string(f.Kind) + ": " + f.Message }

// step is one entry of a traced schedule, in execution order: an
// operation performed, a wait that blocked, a wake from it, or a switch to
// another goroutine.
type step struct {
	thread int
	kind   stepKind
	op     string // stepOp: the operation; stepWait: what it waits on
	args   []any
	at     runtime.Frame // where the operation is in the source
	ok     bool          // stepWake: ready (true) or timed out
	// stepSwitch: the goroutine that runs next, and whether it was a
	// preemption.
	to      int
	preempt bool
	timer   bool  // the switch is a timeout firing early
	when    int64 // for a timer: the virtual time it fired at
}

type stepKind uint8

const (
	stepOp stepKind = iota
	stepWait
	stepWake
	stepSwitch
)

func (r *run) noteSwitch(t *thread, to int, preempt bool) {
	if n := len(r.decisions); n > 0 && r.decisions[n-1].timer == to && r.decisions[n-1].chosen == to {
		r.trace = append(r.trace, step{thread: t.id, kind: stepSwitch, to: to, preempt: true, timer: true, when: r.now})
		return
	}
	r.trace = append(r.trace, step{thread: t.id, kind: stepSwitch, to: to, preempt: preempt})
}

// The replay token lists the decisions whose choice differs from the
// default one (the current goroutine goes on; otherwise the lowest
// numbered), as decision:goroutine pairs: "17:2,40:1". The empty schedule,
// all defaults, is "-".

func encodeToken(ds []decision) string {
	var b strings.Builder
	for i := range ds {
		d := &ds[i]
		if d.chosen == d.defaultChoice() {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%d", i, d.chosen)
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// ParseToken reads a replay token into its decision:goroutine pairs.
func ParseToken(tok string) (map[int]int, error) {
	m := map[int]int{}
	tok = strings.TrimSpace(tok)
	if tok == "-" || tok == "" {
		return m, nil
	}
	for _, f := range strings.Split(tok, ",") {
		a, b, ok := strings.Cut(f, ":")
		i, err1 := strconv.Atoi(a)
		g, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || i < 0 || g < 0 {
			return nil, fmt.Errorf("explore: bad replay token %q: want decision:goroutine pairs separated by commas, or -", tok)
		}
		m[i] = g
	}
	return m, nil
}

// moduleRoot is the directory above this package: trace locations are
// printed relative to it.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(filepath.Dir(file))
}()

// instrumentation names the packages whose frames a location skips: the
// explorer and the drop-in packages that call it.
var instrumentation = []string{"/explore/", "/impl/internal/atomic/", "/impl/internal/sync/"}

func isInstrumentation(file string) bool {
	if strings.HasSuffix(file, "_test.go") {
		return false
	}
	for _, p := range instrumentation {
		if strings.Contains(file, p) && filepath.Dir(file) == filepath.Join(moduleRoot, strings.Trim(p, "/")) {
			return true
		}
	}
	return false
}

// callerFrame is the first frame outside the instrumentation: the line of
// code that performed the operation.
func callerFrame() runtime.Frame {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isInstrumentation(f.File) {
			return f
		}
		if !more {
			return runtime.Frame{}
		}
	}
}

func location(f runtime.Frame) string {
	if f.File == "" {
		return "?"
	}
	file := f.File
	if rel, err := filepath.Rel(moduleRoot, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	}
	return fmt.Sprintf("%s:%d", file, f.Line)
}

// sourceLine returns the text of the line at f, trimmed, without a
// trailing comment.
func sourceLine(f runtime.Frame, cache map[string][]string) string {
	if f.File == "" {
		return ""
	}
	lines, ok := cache[f.File]
	if !ok {
		b, err := os.ReadFile(f.File)
		if err == nil {
			lines = strings.Split(string(b), "\n")
		}
		cache[f.File] = lines
	}
	if f.Line < 1 || f.Line > len(lines) {
		return ""
	}
	s := strings.TrimSpace(lines[f.Line-1])
	if i := strings.Index(s, " // "); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 70 {
		s = s[:67] + "..."
	}
	return s
}

// formatTrace prints a traced schedule as numbered steps.
func (r *run) formatTrace() string {
	var b strings.Builder
	cache := map[string][]string{}
	labels := map[uintptr]string{}
	width := 4
	for _, t := range r.threads {
		width = max(width, len(t.name))
	}
	fmt.Fprintf(&b, "goroutines: ")
	for i, t := range r.threads {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d=%s", t.id, t.name)
	}
	b.WriteString("\n")
	n := 0
	for _, s := range r.trace {
		name := r.threads[s.thread].name
		if s.kind == stepSwitch {
			if s.timer {
				fmt.Fprintf(&b, "       ---- preempted: %s's timeout fires (virtual time %v) ----\n", r.threads[s.to].name, time.Duration(s.when))
				continue
			}
			if s.preempt {
				fmt.Fprintf(&b, "       ---- preempted: %s runs ----\n", r.threads[s.to].name)
			} else {
				fmt.Fprintf(&b, "       ---- %s runs ----\n", r.threads[s.to].name)
			}
			continue
		}
		var what string
		switch s.kind {
		case stepWait:
			what = "waits for " + s.op
		case stepWake:
			what = "wakes: ready"
			if !s.ok {
				what = "wakes: timed out"
			}
		default:
			what = s.op + formatArgs(s.args, labels)
		}
		n++
		fmt.Fprintf(&b, "%5d  %-*s  %-34s  %-36s", n, width, name, location(s.at), what)
		if src := sourceLine(s.at, cache); src != "" && s.kind != stepWake {
			fmt.Fprintf(&b, "  | %s", src)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// formatArgs prints operation values: small integers in decimal, words
// that look like packed halves in hex, pointers as p1, p2, ... in order of
// first appearance, so that the same schedule prints the same trace.
func formatArgs(args []any, labels map[uintptr]string) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formatValue(a, labels)
	}
	return " " + strings.Join(parts, " ")
}

func formatValue(a any, labels map[uintptr]string) string {
	if s, ok := a.(string); ok {
		return s
	}
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.Invalid:
		return "nil"
	case reflect.Pointer, reflect.UnsafePointer:
		if v.IsNil() {
			return "nil"
		}
		p := v.Pointer()
		l, ok := labels[p]
		if !ok {
			l = fmt.Sprintf("p%d", len(labels)+1)
			labels[p] = l
		}
		return l
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		if u := v.Uint(); u > 1<<32 {
			return fmt.Sprintf("[%d|%d]", u>>32, uint32(u))
		}
	}
	return fmt.Sprint(a)
}
