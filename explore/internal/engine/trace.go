package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// failureKind says how a schedule failed: Failure.Kind's values.
type failureKind = string

const (
	kindRace     failureKind = "data race"
	kindAssert   failureKind = "assertion"
	kindPanic    failureKind = "panic"
	kindDeadlock failureKind = "deadlock"
	kindStep     failureKind = "step budget"
)

// Failure is a failed schedule (explore.Failure).
type Failure struct {
	// Kind says how it failed: "assertion" (Assert, Failf), "panic",
	// "deadlock", "step budget" (more than Options.MaxSteps), "data
	// race" (the weak mode's plain cells), "diverged" (a replay that
	// could not follow its token) or "nothing weak" (a weak-mode search
	// that performed no ordered operation).
	Kind    string
	Message string
	Thread  string // the goroutine that found it
	Stack   string // for a panic: the panicking goroutine's stack
	// Token replays the schedule (Options.Replay); Trace is the schedule
	// as numbered steps.
	Token string
	Trace string
	// Schedule is how many schedules had run when this one failed, and
	// Preemptions how many preemptions it has.
	Schedule    int
	Preemptions int
	// trace is the traced schedule as data, for the page (page.go).
	trace *TraceData
}

func (f *Failure) Error() string { return f.Kind + ": " + f.Message }

// Data is the traced schedule as data (nil if the failure has no trace),
// for the counterexample page.
func (f *Failure) Data() *TraceData { return f.trace }

// step is one entry of a traced schedule, in execution order: an
// operation performed, a wait that blocked, a wake from it, or a switch to
// another goroutine.
type step struct {
	thread int
	kind   stepKind
	op     string // stepOp: the operation; stepWait: what it waits on
	args   []any
	// derefs, beside args, are what pointers to plain data among them
	// pointed to when the step ran (traceobj.go's plainValue); nil for
	// the others.
	derefs []any
	at     runtime.Frame // where the operation is in the source
	ok     bool          // stepWake: ready (true) or timed out
	// stepSwitch: the goroutine that runs next, and whether it was a
	// preemption.
	to      int
	preempt bool
	timer   bool  // the switch is a timeout firing early
	when    int64 // for a timer: the virtual time it fired at
	// loc is the address of the atomic or cell an operation is on (0:
	// none named); w what the weak mode knows of it (weaktrace.go).
	loc uintptr
	w   *weakStep
	// views are the scenario's views (View) after the step.
	views []string
}

// addStep appends a numbered step (anything but a switch) to the trace.
func (r *run) addStep(s step) {
	r.numbered++
	for _, v := range r.views {
		s.views = append(s.views, v.name+": "+v.f())
	}
	r.trace = append(r.trace, s)
}

type stepKind uint8

const (
	stepOp stepKind = iota
	stepWait
	stepWake
	stepSwitch
)

func (r *run) noteSwitch(t *thread, to int, preempt bool) {
	if n := len(r.decisions); n > 0 && r.decisions[n-1].kind == kindGoroutine && r.decisions[n-1].timer == to && r.decisions[n-1].chosen == to {
		r.trace = append(r.trace, step{thread: t.id, kind: stepSwitch, to: to, preempt: true, timer: true, when: r.now})
		return
	}
	r.trace = append(r.trace, step{thread: t.id, kind: stepSwitch, to: to, preempt: preempt})
}

// moduleRoot is the module's directory, three above this package
// (explore/internal/engine): trace locations are printed relative to it.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file))))
}()

// modulePath is the module's import path: with -trimpath (cmd/verify
// builds so) a frame's file is named under it, not under moduleRoot.
const modulePath = "github.com/wsched/wsched"

// ModuleDir is the module's directory on disk: moduleRoot, or, in a
// -trimpath build, the nearest directory above the working directory
// that holds go.mod.
func ModuleDir() string {
	if filepath.IsAbs(moduleRoot) {
		return moduleRoot
	}
	wd, err := os.Getwd()
	for err == nil {
		if _, e := os.Stat(filepath.Join(wd, "go.mod")); e == nil {
			return wd
		}
		up := filepath.Dir(wd)
		if up == wd {
			break
		}
		wd = up
	}
	return ""
}

// srcPath is where the source file a frame names is on disk.
func srcPath(file string) string {
	if rest, ok := strings.CutPrefix(file, modulePath+"/"); ok && !filepath.IsAbs(file) {
		if d := ModuleDir(); d != "" {
			return filepath.Join(d, rest)
		}
	}
	return file
}

// instrumentation names the packages whose frames a location skips: the
// engine, the public packages whose calls go through it (a scenario's,
// and a structure's own instrumentation), and the drop-in packages that
// call it.
var instrumentation = []string{"/explore/internal/engine/", "/explore/", "/explore/atomic/", "/explore/sync/"}

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
	return firstFrame(pcs[:n])
}

// callerPCs is the stack callerFrame walks, not yet resolved into frames
// (firstFrame does that), and only its first 8 frames, which hold the
// instrumentation's: the cheap half of callerFrame, for a name that may
// never be asked for.
func callerPCs() []uintptr {
	pcs := make([]uintptr, 8)
	return pcs[:runtime.Callers(2, pcs)]
}

// firstFrame is the first frame of pcs outside the instrumentation.
func firstFrame(pcs []uintptr) runtime.Frame {
	frames := runtime.CallersFrames(pcs)
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
	lines := readLines(f.File, cache)
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
