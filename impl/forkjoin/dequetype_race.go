//go:build race

package forkjoin

import "github.com/wsched/wsched/impl/deque"

// In a race build a worker's deque is a type of this package with
// impl/deque's layout, each method a call of impl/deque's compiled here
// and never inlined, so that the instantiation of the deque's methods for
// job is compiled in this package only: a package that imports this one
// sees no deque.Deque[job] (Go compiles an instantiated type's methods
// into every package that reads the type, and the linker keeps the largest
// copy, the instrumented one of a user's package in the fast race build).
// impl/sched/queuetypes_race.go says the same of the scheduler's queues.
type jobDeque deque.Deque[job]

//go:noinline
func (d *jobDeque) Push(j *job) { (*deque.Deque[job])(d).Push(j) }

//go:noinline
func (d *jobDeque) Pop() (*job, bool) { return (*deque.Deque[job])(d).Pop() }

//go:noinline
func (d *jobDeque) Steal() (*job, deque.StealResult) { return (*deque.Deque[job])(d).Steal() }

//go:noinline
func (d *jobDeque) Len() int { return (*deque.Deque[job])(d).Len() }
