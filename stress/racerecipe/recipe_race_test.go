//go:build race

package racerecipe

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Recipe is the flag that compiles the scheduler outside the race detector
// (docs/performance.md, "Race build, wsched outside the detector").
const Recipe = "-gcflags=github.com/wsched/wsched/impl/...=-race=false"

// TestRaceRecipe builds this package's tests with the recipe, once, and
// runs them in a child process: the scheduler's packages are compiled
// without the detector's instrumentation and this package with it; the
// edge tests must pass with no report, and TestRacyTasks must be reported.
func TestRaceRecipe(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the recipe's binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "recipe.test")
	build := exec.Command(goTool, "test", "-race", "-c", "-o", bin, Recipe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(build.Args, " "), err, out)
	}

	// The recipe took: the scheduler's code calls none of the detector's
	// function hooks, this package's does; and the methods of the
	// scheduler's generic queues linked into this binary are the copies
	// compiled in impl/ (see hotQueueMethods).
	dump, err := exec.Command(goTool, "tool", "objdump", "-s", checkedFuncs, bin).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	funcs := map[string]string{}
	for _, fn := range strings.Split(string(dump), "TEXT ")[1:] {
		name, _, _ := strings.Cut(fn, "(SB)")
		funcs[name] = fn
	}
	for _, name := range []string{"github.com/wsched/wsched/impl/sched.(*worker).execute", "github.com/wsched/wsched/stress/racerecipe.racyWrite"} {
		fn, ok := funcs[name]
		if !ok {
			t.Fatalf("objdump did not find %s", name)
		}
		hooked := strings.Contains(fn, "runtime.racefuncenter") || strings.Contains(fn, "runtime.racewrite")
		if want := strings.Contains(name, "racerecipe"); hooked != want {
			t.Fatalf("%s: calls the detector's hooks: %v, want %v (did the -gcflags patterns apply?)", name, hooked, want)
		}
	}
	names := slices.Sorted(maps.Keys(funcs))
	for _, want := range hotQueueMethods {
		found := false
		for _, name := range names {
			if !want.MatchString(name) {
				continue
			}
			found = true
			if calls := detectorCalls(funcs[name]); len(calls) > 0 {
				why := "an instrumented copy of a generic method was linked: does a package importing impl/sched or impl/forkjoin see impl/queue's or impl/deque's generic types again? queuetypes_race.go"
				if strings.Contains(strings.Join(calls, " "), "Mutex") {
					why = "a sync.Mutex tells the detector of every acquisition: the race build's lock is globallock_race.go's"
				}
				t.Errorf("%s calls the detector in the recipe's build: %s (%s)", name, strings.Join(calls, ", "), why)
			}
		}
		if !found {
			t.Errorf("objdump found no function matching %s in the recipe's binary (renamed? update hotQueueMethods)", want)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	edges := exec.Command(bin, "-test.run", "^TestEdge", "-test.count", "1")
	out, err := edges.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("DATA RACE")) {
		t.Fatalf("the edge tests in the recipe's build: %v\n%s", err, out)
	}

	racy := exec.Command(bin, "-test.run", "^TestRacyTasks$", "-test.count", "1")
	racy.Env = append(os.Environ(), racyEnv+"=1")
	out, err = racy.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("WARNING: DATA RACE")) || !bytes.Contains(out, []byte("racerecipe.racyWrite")) {
		t.Fatalf("the race between two tasks, in the recipe's build: want a report naming racyWrite and a failure, got err %v\n%s", err, out)
	}
}

// checkedFuncs selects what TestRaceRecipe disassembles: a function of
// impl/sched, one of this package, and the queue methods below.
const checkedFuncs = `^github\.com/wsched/wsched/(impl/sched\.\(\*worker\)\.execute|stress/racerecipe\.racyWrite|` +
	`impl/queue\.\(\*(Ring|Slot|Global)\[.*|impl/queue\.\(\*globalLock\)\..*|impl/deque\.\(\*Deque\[.*|` +
	`impl/sched\.\(\*task(Ring|Slot|Global)\)\..*|impl/forkjoin\.\(\*jobDeque\)\..*)$`

// hotQueueMethods are the queue operations of every spawn, poll, wake,
// steal and fork-join job: impl/queue's ring, LIFO slot and global queue,
// impl/deque's deque (their generic methods, by the shape Go compiles them
// for), the global queue's lock in race builds (globallock_race.go; not
// generic; its Unlock inlines), and the race build's forwarding methods of
// impl/sched and impl/forkjoin (queuetypes_race.go, dequetype_race.go). In
// the recipe's build none may call the detector. The generic ones Go also
// compiles into every package that imports the scheduler, this one
// included, with the detector, and the linker keeps the largest copy: the
// instrumented one, unless no importer sees the types, which is what the
// forwarding types are for. Each pattern must match at least one function,
// so a rename cannot empty the check. Not here: deque's ring.grown (run
// only when a deque outgrows its buffer), still compiled into importers.
var hotQueueMethods = func() []*regexp.Regexp {
	var res []*regexp.Regexp
	for _, p := range []string{
		`impl/queue\.\(\*Ring\[.*\]\)\.(Push|Pop|StealInto|claim|take|release)$`,
		`impl/queue\.\(\*Slot\[.*\]\)\.(Take|Steal)$`,
		`impl/queue\.\(\*Global\[.*\]\)\.(Push|PushBatch|PopBatch)$`,
		`impl/queue\.\(\*globalLock\)\.Lock$`,
		`impl/deque\.\(\*Deque\[.*\]\)\.(Push|Pop|Steal)$`,
		`impl/sched\.\(\*taskRing\)\.(Push|Pop|StealInto)$`,
		`impl/sched\.\(\*taskSlot\)\.(Put|Take|Steal)$`,
		`impl/sched\.\(\*taskGlobal\)\.(Push|PushBatch|PopBatch)$`,
		`impl/forkjoin\.\(\*jobDeque\)\.(Push|Pop|Steal)$`,
	} {
		res = append(res, regexp.MustCompile(`^github\.com/wsched/wsched/`+p))
	}
	return res
}()

// detectorCalls lists the calls of one disassembled function into the race
// detector: its function, read and write hooks, sync/atomic's functions,
// which a package compiled with the detector calls instead of the
// instructions, and a sync.Mutex's Lock and Unlock, which tell the detector
// of every acquisition whoever compiled the caller (the global queue's
// lock is impl/queue's own in race builds, globallock_race.go, for that
// reason). sync/atomic's pointer stores, swaps and compare-and-swaps
// are calls in every build (they run the garbage collector's write
// barrier), so they are not counted: in any binary linked with the
// detector they reach it, whoever compiled the caller.
func detectorCalls(fn string) []string {
	var calls []string
	for _, m := range detectorCall.FindAllStringSubmatch(fn, -1) {
		if !pointerAtomic.MatchString(m[1]) && !slices.Contains(calls, m[1]) {
			calls = append(calls, m[1])
		}
	}
	return calls
}

var (
	detectorCall  = regexp.MustCompile(`CALL (runtime\.race(?:funcenter|funcexit|read|write|readrange|writerange)|sync/atomic\.[A-Za-z0-9]+|(?:internal/)?sync\.\(\*(?:RW)?Mutex\)\.\w+)\(SB\)`)
	pointerAtomic = regexp.MustCompile(`^sync/atomic\.(Store|Swap|CompareAndSwap)Pointer$`)
)

// TestDetectorCallsNamesEveryForm feeds detectorCalls disassembly lines in
// the forms objdump prints: a sync.Mutex's Lock and Unlock inline
// internal/sync's, so a mutex shows as a call of internal/sync's methods.
func TestDetectorCallsNamesEveryForm(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"  x.go:1  0x1  e800000000  CALL runtime.racereadrange(SB)", []string{"runtime.racereadrange"}},
		{"  x.go:1  0x1  e800000000  CALL sync/atomic.AddInt32(SB)", []string{"sync/atomic.AddInt32"}},
		{"  x.go:1  0x1  e800000000  CALL sync/atomic.StorePointer(SB)", nil},
		{"  x.go:1  0x1  e800000000  CALL sync.(*Mutex).Lock(SB)", []string{"sync.(*Mutex).Lock"}},
		{"  x.go:1  0x1  e800000000  CALL internal/sync.(*Mutex).Lock(SB)", []string{"internal/sync.(*Mutex).Lock"}},
		{"  x.go:1  0x1  e800000000  CALL internal/sync.(*Mutex).unlockSlow(SB)", []string{"internal/sync.(*Mutex).unlockSlow"}},
		{"  x.go:1  0x1  e800000000  CALL sync.(*RWMutex).RLock(SB)", []string{"sync.(*RWMutex).RLock"}},
		{"  x.go:1  0x1  e800000000  CALL runtime.Gosched(SB)", nil},
	} {
		if got := detectorCalls(c.line + "\n"); !slices.Equal(got, c.want) {
			t.Errorf("detectorCalls(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
