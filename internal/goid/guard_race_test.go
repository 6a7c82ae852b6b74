//go:build race

package goid

import "testing"

func TestSecondEnterPanicsUntilExit(t *testing.T) {
	var g Guard
	g.Enter("first")
	msg := func() (msg string) {
		defer func() { msg, _ = recover().(string) }()
		g.Enter("two owners")
		return ""
	}()
	if msg != "two owners" {
		t.Fatalf("second Enter: panic %q, want the message given", msg)
	}
	g.Exit()
	g.Enter("after Exit") // one owner again: no panic
	g.Exit()
}
