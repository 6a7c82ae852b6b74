//go:build explore

package scenarios

import (
	"strconv"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/deque"
	"github.com/wsched/wsched/impl/queue"
)

// The trace prints every operation as the code called it, ordering
// included, in the plain mode too; the fences as steps; the ring's head as
// [steal|real], because its declaration says it packs the two.
func TestExploreTraceIsFaithful(t *testing.T) {
	if explore.WeakMode() {
		t.Skip("checks the plain mode's trace; the weak mode's is checked in package explore")
	}
	ring := explore.Explore(explore.Options{Replay: "sc/-"}, func() {
		l, g, r := newLedger(), queue.NewGlobal[item](), queue.NewRing[item]()
		its := items(3)
		th := thief("thief", l, r, 1)
		for _, it := range its {
			r.Push(it, g)
		}
		th.Join()
		drainRing(l, "owner", r)
		drainGlobal(l, g)
		l.exactlyOnce(3)
	})
	dq := explore.Explore(explore.Options{Replay: "sc/-"}, func() {
		l := newLedger()
		d, _ := deque.New[item](2)
		its := items(2)
		d.Push(its[0])
		th := stealAll("thief", l, d, 2)
		d.Push(its[1])
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		th.Join()
		l.exactlyOnce(2)
	})
	for _, c := range []struct {
		name  string
		res   explore.Result
		wants []string
	}{
		{"ring", ring, []string{"LoadAcquire -> [0|0]", "StoreRelease 1", "CompareAndSwapAcquireRelaxed [0|0] [0|2] -> true", "CompareAndSwapReleaseRelaxed [0|2] [2|2] -> true"}},
		{"deque", dq, []string{"FenceRelease", "FenceSeqCst", "StoreRelaxed 1", "LoadAcquire -> 0"}},
	} {
		if c.res.Failure != nil {
			t.Fatalf("%s: %v", c.name, c.res.Failure)
		}
		for _, w := range c.wants {
			if !strings.Contains(c.res.Trace, w) {
				t.Errorf("%s: the trace has no %q:\n%s", c.name, w, c.res.Trace)
			}
		}
		// One number per step: they run 1, 2, 3, ... without a gap or a
		// repeat.
		n := 0
		for _, line := range strings.Split(c.res.Trace, "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || f[0] == "goroutines:" || f[0] == "objects:" || f[0] == "----" {
				continue
			}
			if f[0] != strconv.Itoa(n+1) {
				t.Fatalf("%s: step line %q after step %d", c.name, line, n)
			}
			n++
		}
	}
}
