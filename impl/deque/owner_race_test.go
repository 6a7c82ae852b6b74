//go:build race

package deque

import "testing"

// In a race-detector build, Push or Pop entered while another owner-only
// operation runs on the same deque panics naming the one-owner rule. The
// other operation is simulated by holding the guard, so the test is
// deterministic.
func TestDequeSecondOwnerPanics(t *testing.T) {
	d, _ := New[int](0)
	x := 1
	d.Push(&x)
	for name, call := range map[string]func(){
		"Push": func() { d.Push(&x) },
		"Pop":  func() { d.Pop() },
	} {
		d.owner.Enter("a test's operation")
		msg := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			call()
			return ""
		}()
		d.owner.Exit()
		if msg != twoOwners {
			t.Errorf("%s during another owner operation: panic %q, want %q", name, msg, twoOwners)
		}
	}
	if d.Len() != 1 {
		t.Fatalf("Len = %d: a refused call changed the deque", d.Len())
	}
	// Steal is for every goroutine: no guard.
	if v, res := d.Steal(); res != Success || v != &x {
		t.Fatalf("Steal = %v, %v", v, res)
	}
}
