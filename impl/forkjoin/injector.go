package forkjoin

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// injector is the FIFO of jobs handed to the pool by Run from outside. It is
// a mutex and a slice: Run is the slow entry path, taken once per external
// computation, not once per Join.
type injector struct {
	mu   sync.Mutex
	jobs []*job
	head int
	// n mirrors len(jobs)-head so that idle workers can look without the
	// lock. Ordering: written under mu (release), read with acquire.
	n atomic.Int64
}

func (q *injector) push(j *job) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	// Ordering: seq_cst. The count must be visible before the pusher's
	// newJobs reads the sleep counters, and a sleeper's last look at it
	// (after registering) must not be ordered before its registration.
	q.n.AddSeqCst(1)
	q.mu.Unlock()
}

func (q *injector) pop() *job {
	// Ordering: acquire. A zero may be stale; the sleep protocol, not
	// this check, guarantees the job is found (newJobs after push).
	if q.n.LoadAcquire() == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.jobs) {
		return nil
	}
	j := q.jobs[q.head]
	q.jobs[q.head] = nil
	q.head++
	if q.head == len(q.jobs) {
		q.jobs, q.head = q.jobs[:0], 0
	}
	q.n.AddRelaxed(-1) // under mu; relaxed would do
	return j
}

// nonEmpty reports whether a job was waiting at some moment during the call.
// Ordering: seq_cst (see push).
func (q *injector) nonEmpty() bool { return q.n.LoadSeqCst() > 0 }
