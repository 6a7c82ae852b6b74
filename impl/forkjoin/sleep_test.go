package forkjoin

import (
	"testing"
	"time"
)

// newSleepRig returns a pool's sleep state with two workers and no timeout,
// and worker 1, without starting any goroutine: the test plays worker 1's
// idle steps and a publisher's newJobs in the order it wants.
func newSleepRig() (*Pool, *Worker) {
	p := &Pool{}
	p.sleep.init(2, 0)
	return p, &Worker{pool: p, index: 1}
}

// announce runs worker w's idle rounds up to and including the sleepy
// announcement (each round stands for one search that found nothing).
func announce(p *Pool, w *Worker, st *idleState, l *latch) {
	for st.rounds <= roundsUntilSleepy {
		p.sleep.noWorkFound(st, l, w)
	}
}

// sleepStep runs the sleep stage on its own goroutine and reports whether it
// returned within d. If not, it wakes the worker and waits for it.
func sleepStep(p *Pool, w *Worker, st *idleState, l *latch, d time.Duration) (returned bool) {
	done := make(chan struct{})
	go func() {
		p.sleep.noWorkFound(st, l, w)
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		for !p.sleep.wakeSpecific(w.index) {
			time.Sleep(time.Millisecond)
		}
		<-done
		return false
	}
}

// TestSleepSeesJobPublishedAfterAnnouncement is the middle case of the
// argument in sleep.go: a job published after the worker announced sleepy
// (and after its last search) must stop it from sleeping.
func TestSleepSeesJobPublishedAfterAnnouncement(t *testing.T) {
	p, w := newSleepRig()
	var st idleState
	var l latch
	announce(p, w, &st, &l)
	p.sleep.newJobs() // the publisher, after the worker's last search
	if !sleepStep(p, w, &st, &l, 2*time.Second) {
		t.Fatal("the worker went to sleep although a job was published after its sleepy announcement")
	}
	if st.rounds != roundsUntilSleepy {
		t.Errorf("after the refused sleep rounds = %d, want %d (search again, then sleep)", st.rounds, roundsUntilSleepy)
	}
	if c := p.sleep.load(); c.sleepers() != 0 {
		t.Errorf("sleepers = %d after the refused sleep", c.sleepers())
	}
}

// TestSleepWokenByLaterJob is the last case: a job published after the
// worker registered as a sleeper wakes it.
func TestSleepWokenByLaterJob(t *testing.T) {
	p, w := newSleepRig()
	var st idleState
	var l latch
	announce(p, w, &st, &l)
	done := make(chan struct{})
	go func() {
		p.sleep.noWorkFound(&st, &l, w)
		close(done)
	}()
	for p.sleep.load().sleepers() != 1 {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("the worker stopped sleeping before anything happened")
	case <-time.After(20 * time.Millisecond):
	}
	p.sleep.newJobs()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("newJobs did not wake the sleeping worker")
	}
	if c := p.sleep.load(); c.sleepers() != 0 {
		t.Errorf("sleepers = %d after the wake", c.sleepers())
	}
}

// TestSleepWokenByLatch: a worker asleep on a latch is woken by whoever sets
// it, with no job published at all.
func TestSleepWokenByLatch(t *testing.T) {
	p, w := newSleepRig()
	var st idleState
	var l latch
	announce(p, w, &st, &l)
	done := make(chan struct{})
	go func() {
		p.sleep.noWorkFound(&st, &l, w)
		close(done)
	}()
	for p.sleep.load().sleepers() != 1 {
		time.Sleep(time.Millisecond)
	}
	if !l.set() {
		t.Fatal("set did not report the owner asleep")
	}
	p.sleep.wakeSpecific(w.index)
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("setting the latch did not wake its owner")
	}
	if !l.probe() {
		t.Error("latch not set after the wake")
	}
}
