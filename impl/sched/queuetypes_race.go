//go:build race

package sched

import "github.com/wsched/wsched/impl/queue"

// In a race build the scheduler's queues are types of this package with
// impl/queue's layout, and each method a call of impl/queue's, compiled
// here and never inlined: so the instantiations of impl/queue's generic
// methods for task are compiled in this package only.
//
// Why it matters: Go compiles the methods of an instantiated generic type
// into every package that reads the type, even only as the type of a field
// of a struct it uses (a test's *Runtime is enough), and the linker keeps
// the largest of the copies. In the fast race build (docs/performance.md:
// impl/... compiled with -race=false) the copy in a user's package, compiled
// with the detector, is the largest, so the ring, the LIFO slot and the
// global queue ran instrumented. A type defined here has an underlying
// struct, not impl/queue's named type: a package importing this one sees no
// instantiation of Ring, Slot or Global, and the one compiled here is the
// one linked. The default race build loses nothing: this package is
// compiled with the detector there, the copy with it.
type (
	taskRing   queue.Ring[task]
	taskSlot   queue.Slot[task]
	taskGlobal queue.Global[task]
)

//go:noinline
func (r *taskRing) Push(t *task, overflow queue.Injector[task]) int {
	return (*queue.Ring[task])(r).Push(t, overflow)
}

//go:noinline
func (r *taskRing) Pop() *task { return (*queue.Ring[task])(r).Pop() }

//go:noinline
func (r *taskRing) StealInto(dst *taskRing) (*task, int) {
	return (*queue.Ring[task])(r).StealInto((*queue.Ring[task])(dst))
}

//go:noinline
func (r *taskRing) Len() int { return (*queue.Ring[task])(r).Len() }

//go:noinline
func (s *taskSlot) Put(t *task) *task { return (*queue.Slot[task])(s).Put(t) }

//go:noinline
func (s *taskSlot) Take() *task { return (*queue.Slot[task])(s).Take() }

//go:noinline
func (s *taskSlot) Steal() *task { return (*queue.Slot[task])(s).Steal() }

//go:noinline
func (s *taskSlot) Full() bool { return (*queue.Slot[task])(s).Full() }

//go:noinline
func (g *taskGlobal) Push(t *task) { (*queue.Global[task])(g).Push(t) }

//go:noinline
func (g *taskGlobal) PushBatch(ts []*task) { (*queue.Global[task])(g).PushBatch(ts) }

//go:noinline
func (g *taskGlobal) PopBatch(dst []*task) int { return (*queue.Global[task])(g).PopBatch(dst) }

//go:noinline
func (g *taskGlobal) Len() int { return (*queue.Global[task])(g).Len() }
