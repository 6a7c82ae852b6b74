//go:build explore

package scenarios

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// The price of one link of a spawn chain (bench's ChainedSpawn), counted
// rather than timed: a task that spawns the next one from its poll and
// returns, on a runtime of one worker, in the schedule with no preemption.
// Each link is the spawn (a push onto the worker's own ring and the
// notify), the finish, and the next poll's pop and state transition; of
// its shared-memory operations, the locked ones (on amd64 every sync/atomic
// store, swap, add and compare-and-swap is a LOCK-prefixed instruction;
// loads and the ring's plain cells are not) are what bounds the chain on
// one core (docs/performance.md, "How far from the floor"). The test fails
// when a change adds or removes one, so that the page's account and this
// comment are changed with it.
const (
	chainLinkOps    = 18 // shared-memory operations per link
	chainLinkLocked = 4  // of which locked: ring tail store, head CAS, task state CAS and store
)

const chainMeant = "If the change is meant, update chainLinkOps and chainLinkLocked, and what docs/performance.md's floor section (bench/cmd/report/floor.go) says of a link."

// chainLink spawns the next link until n reaches 0.
type chainLink struct{ n int }

func (l *chainLink) Poll(cx *sched.Context) sched.Poll {
	if l.n > 0 {
		if _, err := cx.Spawn(&chainLink{n: l.n - 1}); err != nil {
			explore.Failf("Spawn: %v", err)
		}
	}
	return sched.Ready
}

// traceOp matches an operation's name in a trace line: an ordered atomic
// (its name ends with the ordering), a plain cell's access, a fence or a
// lock.
var traceOp = regexp.MustCompile(`^(Load|Store|Add|Or|And|CompareAndSwap|Swap|Take|Fence|Lock|Unlock)\w*$`)

// orderedOp matches an ordered atomic's name: it ends with its ordering.
var orderedOp = regexp.MustCompile(`(Relaxed|Release|Acquire|AcqRel|SeqCst)$`)

// lockedOp says whether a trace operation is a LOCK-prefixed instruction in
// the plain build on amd64.
func lockedOp(op string) bool {
	if op == "Lock" || op == "Unlock" {
		return true
	}
	ordered := orderedOp.MatchString(op)
	return ordered && !strings.HasPrefix(op, "Load") && !strings.HasPrefix(op, "Fence")
}

func TestExploreChainLinkOperations(t *testing.T) {
	if explore.WeakMode() {
		t.Skip("counts the plain build's operations")
	}
	res := explore.Explore(explore.Options{Replay: "sc/-"}, func() {
		rt := newRuntime(1)
		h, err := rt.Spawn(&chainLink{n: 40})
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := h.Wait(context.Background()); err != nil {
			explore.Failf("Wait: %v", err)
		}
		shutdown(rt)
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	// The worker's operations, cut into links at each spawn's first step
	// (spawnLocal's shutdown check).
	var links [][]string
	for _, line := range strings.Split(res.Trace, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[1] != "worker" || f[2] != "0" {
			continue
		}
		if strings.Contains(line, "| if w.rt.closed.LoadAcquire() {") && strings.Contains(line, "worker.go") {
			links = append(links, nil)
		}
		if len(links) == 0 {
			continue
		}
		for _, tok := range f[4:] {
			if traceOp.MatchString(tok) {
				links[len(links)-1] = append(links[len(links)-1], tok)
				break
			}
		}
	}
	if len(links) < 30 {
		t.Fatalf("%d links found in the trace, want 40: the cut no longer matches spawnLocal\n%s", len(links), res.Trace)
	}
	// Links in the middle of the chain, past the first tick's start and
	// before its end. Every one has the same locked operations; some have
	// a load more (the periodic look at the global queue's length), so the
	// count of all operations is the fewest.
	steady := links[10:30]
	fewest := steady[0]
	for i, l := range steady {
		locked := 0
		for _, op := range l {
			if lockedOp(op) {
				locked++
			}
		}
		if locked != chainLinkLocked {
			t.Errorf("link %d: %d locked operations, want %d: %s\n%s", 10+i, locked, chainLinkLocked, strings.Join(l, " "), chainMeant)
		}
		if len(l) < len(fewest) {
			fewest = l
		}
	}
	if len(fewest) != chainLinkOps {
		t.Errorf("the shortest link has %d operations, want %d: %s\n%s", len(fewest), chainLinkOps, strings.Join(fewest, " "), chainMeant)
	}
	t.Logf("a link: %s", strings.Join(fewest, " "))
}
