//go:build race

package queue

import (
	"testing"
)

// In a race-detector build, an owner-only operation entered while another
// runs on the same ring panics naming the rule. The other operation is
// simulated by holding the guard, so the test is deterministic (two real
// pushers collide only sometimes, and then the race detector reports the
// slot write too).
func TestRingSecondOwnerPanics(t *testing.T) {
	r := NewRing[task]()
	other := NewRing[task]()
	r.Push(&task{id: 1}, nil)
	for _, c := range []struct {
		op   string
		call func()
	}{
		{"Push", func() { r.Push(&task{id: 2}, nil) }},
		{"Pop", func() { r.Pop() }},
		{"StealInto", func() { other.StealInto(r) }},
	} {
		r.owner.Enter("a test's operation")
		msg := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			c.call()
			return ""
		}()
		r.owner.Exit()
		if msg != twoOwners {
			t.Errorf("%s during another owner operation: panic %q", c.op, msg)
		}
	}
	// Alone, each works, and the refused calls changed nothing.
	if r.Len() != 1 {
		t.Fatalf("Len = %d, want 1", r.Len())
	}
	if got := r.Pop(); got == nil || got.id != 1 {
		t.Fatalf("Pop = %v", got)
	}
}
