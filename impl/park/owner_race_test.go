//go:build race

package park

import (
	"testing"
	"time"

	"github.com/wsched/wsched/internal/goid"
)

// In a race-detector build, Park entered while another goroutine is in
// Park on the same parker panics naming the one-owner rule (before: two
// parkers on one futex could each consume the other's token, or both
// sleep). The other Park is simulated by holding the guard, so the test is
// deterministic.
func TestSecondParkerPanics(t *testing.T) {
	type guarded struct {
		name  string
		p     Parker
		guard *goid.Guard
	}
	c := NewChan()
	ps := []guarded{{"chan", c, &c.owner}}
	if FutexSupported {
		f, _ := NewFutex()
		ps = append(ps, guarded{"futex", f, &f.owner})
	}
	for _, g := range ps {
		g.p.Unpark()
		g.guard.Enter("a test's Park")
		msg := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			g.p.Park(0)
			return ""
		}()
		g.guard.Exit()
		if msg != twoParkers {
			t.Errorf("%s: a second Park: panic %q, want %q", g.name, msg, twoParkers)
		}
		if !g.p.Park(2 * time.Second) { // the refused Park left the token (bounded: without the guard it was consumed)
			t.Errorf("%s: the token was consumed by the refused Park", g.name)
		}
	}
}
