package sync

import (
	"testing"
	"time"
)

func TestTokenWaitTakesATokenAlreadyThere(t *testing.T) {
	var w TokenWait
	token := make(chan struct{}, 1)
	for _, timeout := range []time.Duration{0, time.Hour} {
		token <- struct{}{}
		if !w.Wait(token, timeout, "test") {
			t.Fatalf("timeout %v: Wait with a token in the slot reported none", timeout)
		}
		if len(token) != 0 {
			t.Fatalf("timeout %v: Wait left the token in the slot", timeout)
		}
	}
}

func TestTokenWaitTimesOutWithoutAToken(t *testing.T) {
	var w TokenWait
	token := make(chan struct{}, 1)
	if w.Wait(token, time.Millisecond, "test") {
		t.Fatal("Wait took a token nobody sent")
	}
	// A token sent after the timeout is taken by the next wait, and the
	// reused timer's old expiry does not end that wait early.
	token <- struct{}{}
	if !w.Wait(token, time.Hour, "test") || len(token) != 0 {
		t.Fatal("the wait after a timeout did not take the token")
	}
}

func TestTokenWaitWakesOnASend(t *testing.T) {
	var w TokenWait
	token := make(chan struct{}, 1)
	go func() {
		time.Sleep(time.Millisecond)
		token <- struct{}{}
	}()
	if !w.Wait(token, time.Hour, "test") {
		t.Fatal("Wait timed out although a token was sent")
	}
}

func TestTokenWaitReusesItsTimer(t *testing.T) {
	var w TokenWait
	token := make(chan struct{}, 1)
	w.Wait(token, time.Microsecond, "test") // makes the timer
	allocs := testing.AllocsPerRun(20, func() {
		w.Wait(token, time.Microsecond, "test")
	})
	if allocs != 0 {
		t.Fatalf("a timed wait after the first allocates %v times, want 0", allocs)
	}
}
