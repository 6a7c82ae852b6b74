package park

import (
	"testing"
	"time"
)

// The zero Chan panics at Park and Unpark saying to use NewChan (before:
// Park blocked for ever on the nil channel, and Unpark did nothing).
func TestZeroChanPanicsClearly(t *testing.T) {
	var p Chan
	for name, call := range map[string]func(){
		"Park":      func() { p.Park(0) },
		"Park(1ms)": func() { p.Park(time.Millisecond) },
		"Unpark":    func() { p.Unpark() },
	} {
		done := make(chan string, 1)
		go func() {
			msg := ""
			defer func() { msg, _ = recover().(string); done <- msg }()
			call()
		}()
		var msg string
		select {
		case msg = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s on a zero Chan still blocked after 5 s, want the panic %q", name, zeroChan)
		}
		if msg != zeroChan {
			t.Errorf("%s on a zero Chan: panic %q, want %q", name, msg, zeroChan)
		}
	}
}

// The zero Futex is a working parker (its word's zero is "no token").
func TestZeroFutexWorks(t *testing.T) {
	if !FutexSupported {
		t.Skip("no futex on this system")
	}
	var p Futex
	p.Unpark()
	if !p.Park(0) {
		t.Fatal("Park after Unpark on a zero Futex: not woken")
	}
	if p.Park(time.Millisecond) {
		t.Fatal("Park with no token on a zero Futex reported a token")
	}
}
