//go:build race

package forkjoin_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/wsched/wsched/impl/forkjoin"
)

// With the race detector on, a Worker or Scope used from a goroutine that
// is not the worker's panics at the call, naming the mistake (without it
// the call would push onto another worker's deque from a goroutine that
// does not own it). The slips: a closure that captured the outer Worker
// or Scope and runs elsewhere, a Scope handed to a plain goroutine, a
// Worker kept and used while the pool is busy. Each is made to happen on
// a goroutine of the test's, deterministically.
func TestWorkerFromAnotherGoroutinePanics(t *testing.T) {
	p := newPool(t, 2)
	const want = "forkjoin: "
	noop := func(*forkjoin.Worker) {}
	msgs := map[string]string{}
	var mu sync.Mutex
	record := func(name string, f func()) {
		msg := panicOf(f)
		mu.Lock()
		msgs[name] = msg
		mu.Unlock()
	}
	onAnotherGoroutine := func(name string, f func()) {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); record(name, f) }()
		wg.Wait()
	}
	if err := runWithin(t, p, func(w *forkjoin.Worker) {
		onAnotherGoroutine("Join on the outer Worker", func() { _ = w.Join(noop, noop) })
		onAnotherGoroutine("Scope on the outer Worker", func() { _ = w.Scope(func(*forkjoin.Scope) {}) })
		_ = w.Scope(func(s *forkjoin.Scope) {
			onAnotherGoroutine("Spawn on the outer Scope", func() { _ = s.Spawn(func(*forkjoin.Scope) {}) })
		})
	}); err != nil {
		t.Fatal(err)
	}
	// A kept Worker used from outside while it runs a job.
	var kept *forkjoin.Worker
	inJob, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- p.Run(func(w *forkjoin.Worker) {
			kept = w
			close(inJob)
			<-release
		})
	}()
	<-inJob
	record("a kept Worker while busy", func() { _ = kept.Join(noop, noop) })
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Join on the outer Worker", "Scope on the outer Worker", "Spawn on the outer Scope", "a kept Worker while busy"} {
		if msg := msgs[name]; !strings.HasPrefix(msg, want) || !strings.Contains(msg, "from a goroutine that is not its own") {
			t.Errorf("%s: panic %q", name, msg)
		}
	}
}
