package forkjoin

import (
	"unsafe"

	"github.com/wsched/wsched/impl/internal/raceedge"
)

// Join runs a and b, possibly in parallel, and returns when both have
// returned. b is offered to other workers while this worker runs a; if
// nobody took it, this worker runs it next.
//
// If a or b panics, Join still waits for the other, then panics with a
// *PanicError (a's, if both panicked). Join returns an error only on misuse:
// ErrNilFunc, ErrClosed, or ErrNotInWorker when w is not running a job. In
// the job that received w it returns nil.
func (w *Worker) Join(a, b func(*Worker)) error {
	if a == nil || b == nil {
		return ErrNilFunc
	}
	if err := w.check("Join"); err != nil {
		return err
	}
	jb := w.newJoinJob(b)
	raceedge.Release(unsafe.Pointer(jb)) // race build: the fork happens before b's run (raceedge)
	w.push(jb)
	pa := w.call(a)
	pb := w.takeBack(jb)
	raceedge.Acquire(unsafe.Pointer(jb)) // and b's run before the join
	w.freeJoinJob(jb)
	if pa != nil {
		panic(pa)
	}
	if pb != nil {
		panic(pb)
	}
	return nil
}

// takeBack waits for jb to finish, running it here if it is still in our
// deque, and returns its panic if any.
//
// Everything a pushed after jb has been taken back by the Joins and Scopes
// inside a, so jb is at the bottom of the deque unless a thief took it (and
// with it everything older, since thieves take from the top). The pop loop
// still copes with finding some other job first.
func (w *Worker) takeBack(jb *job) *PanicError {
	for !jb.latch.probe() {
		j, ok := w.deque.Pop()
		if !ok {
			// Stolen: help until the thief sets the latch.
			w.waitUntil(&jb.latch)
			break
		}
		if j == jb {
			return w.call(jb.fn)
		}
		w.execute(j)
	}
	return jb.panic
}

func (w *Worker) newJoinJob(fn func(*Worker)) *job {
	var j *job
	if n := len(w.free); n > 0 {
		j = w.free[n-1]
		w.free = w.free[:n-1]
	} else {
		j = &job{owner: w}
	}
	j.fn = fn
	return j
}

// freeJoinJob keeps jb for the next Join. jb is finished: either we ran it
// inline or its latch is set, and the setter touches it no more after set.
func (w *Worker) freeJoinJob(jb *job) {
	jb.fn = nil
	jb.panic = nil
	jb.latch.reset()
	if len(w.free) < 64 {
		w.free = append(w.free, jb)
	}
}
