package queue_test

// Benchmarks of the lock-free ring against a buffered channel and against
// the mutex-based reference in spec/queue. No assertions on time: read the
// numbers with benchstat, e.g.
//
//	go test -run x -bench . -count 6 ./impl/queue | tee /tmp/queue-bench.txt
//
// "PushPop" is the owner's fast path, one push and one pop with nobody else
// looking. "Steal" is one owner pushing while one thief goroutine steals
// half-batches into its own ring and drains it; ns/op is per task.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/queue"
	spec "github.com/wsched/wsched/spec/queue"
)

type benchTask struct{ n int }

func BenchmarkRingPushPop(b *testing.B) {
	r, g := queue.NewRing[benchTask](), queue.NewGlobal[benchTask]()
	t := &benchTask{}
	for b.Loop() {
		r.Push(t, g)
		if r.Pop() == nil {
			b.Fatal("empty")
		}
	}
}

// BenchmarkRingPushPopBurst pushes 128 then pops 128; ns/op is per task.
func BenchmarkRingPushPopBurst(b *testing.B) {
	r, g := queue.NewRing[benchTask](), queue.NewGlobal[benchTask]()
	t := &benchTask{}
	for i := 0; b.Loop(); i++ {
		r.Push(t, g)
		if i%128 == 127 {
			for r.Pop() != nil {
			}
		}
	}
}

func BenchmarkChanSendRecv(b *testing.B) {
	ch := make(chan *benchTask, queue.Capacity)
	t := &benchTask{}
	for b.Loop() {
		ch <- t
		<-ch
	}
}

func BenchmarkSpecPushPop(b *testing.B) {
	r, g := spec.NewRing[benchTask](), spec.NewGlobal[benchTask]()
	t := &benchTask{}
	for b.Loop() {
		r.Push(t, g)
		if r.Pop() == nil {
			b.Fatal("empty")
		}
	}
}

func BenchmarkGlobalPushPopBatch(b *testing.B) {
	g := queue.NewGlobal[benchTask]()
	t := &benchTask{}
	buf := make([]*benchTask, 32)
	for i := 0; b.Loop(); i++ {
		g.Push(t)
		if i%32 == 31 {
			g.PopBatch(buf)
		}
	}
}

// thiefLoop steals and drains until stop is set, then returns how many
// tasks the thief took.
func thiefLoop(stop *atomic.Bool, steal func() int, pop func() bool) int {
	taken := 0
	for !stop.Load() {
		n := steal()
		if n > 0 {
			taken++ // the task StealInto returned; the rest are popped below
		}
		for pop() {
			taken++
		}
		if n == 0 {
			runtime.Gosched()
		}
	}
	return taken
}

// BenchmarkRingSteal: the owner only pushes, waiting while its ring is
// full; one thief steals half-batches into its own ring and pops them. So
// (nearly) every task travels through a steal; ns/op is per task.
// stolen/op below 1 counts tasks that went to overflow because a steal was
// in flight when the ring was full.
func BenchmarkRingSteal(b *testing.B) {
	owner, mine := queue.NewRing[benchTask](), queue.NewRing[benchTask]()
	g := queue.NewGlobal[benchTask]()
	var stop atomic.Bool
	var wg sync.WaitGroup
	var stolen int
	wg.Go(func() {
		stolen = thiefLoop(&stop,
			func() int { _, n := owner.StealInto(mine); return n },
			func() bool { return mine.Pop() != nil })
	})
	t := &benchTask{}
	pushed := 0
	for b.Loop() {
		for owner.Len() >= queue.Capacity-1 {
			runtime.Gosched()
		}
		owner.Push(t, g)
		pushed++
	}
	for owner.Len() > 0 {
		runtime.Gosched()
	}
	b.StopTimer()
	stop.Store(true)
	wg.Wait()
	b.ReportMetric(float64(stolen)/float64(pushed), "stolen/op")
}

func BenchmarkSpecSteal(b *testing.B) {
	owner, mine := spec.NewRing[benchTask](), spec.NewRing[benchTask]()
	g := spec.NewGlobal[benchTask]()
	var stop atomic.Bool
	var wg sync.WaitGroup
	var stolen int
	wg.Go(func() {
		stolen = thiefLoop(&stop,
			func() int { _, n := owner.StealInto(mine); return n },
			func() bool { return mine.Pop() != nil })
	})
	t := &benchTask{}
	pushed := 0
	for b.Loop() {
		for owner.Len() >= queue.Capacity-1 {
			runtime.Gosched()
		}
		owner.Push(t, g)
		pushed++
	}
	for owner.Len() > 0 {
		runtime.Gosched()
	}
	b.StopTimer()
	stop.Store(true)
	wg.Wait()
	b.ReportMetric(float64(stolen)/float64(pushed), "stolen/op")
}

// BenchmarkChanSteal is the channel version: one goroutine sends every
// task (blocking while the buffer is full), the other receives them.
func BenchmarkChanSteal(b *testing.B) {
	ch := make(chan *benchTask, queue.Capacity)
	var wg sync.WaitGroup
	var stolen int
	wg.Go(func() {
		for range ch {
			stolen++
		}
	})
	t := &benchTask{}
	pushed := 0
	for b.Loop() {
		ch <- t
		pushed++
	}
	b.StopTimer()
	close(ch)
	wg.Wait()
	b.ReportMetric(float64(stolen)/float64(pushed), "stolen/op")
}
