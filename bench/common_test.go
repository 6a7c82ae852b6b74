package bench

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// The sizes of Tokio's benches/rt_multi_threaded.rs.
const (
	numWorkers    = 4                     // workers, for every peer that takes a size
	numSpawn      = 10_000                // tasks per iteration of the SpawnMany* workloads
	numBusy       = 2 * numWorkers        // background tasks in SpawnManyRemoteBusy
	stallDuration = 10 * time.Microsecond // work per background iteration
	yieldTasks    = 200                   // tasks in YieldMany
	numYield      = 1_000                 // yields per YieldMany task
	numPings      = 1_000                 // pings in PingPong
	chainLen      = 1_000                 // links in ChainedSpawn
)

// hangTimeout bounds one call of a benchmark function. A peer that loses a wakeup shows as a
// panic naming the benchmark (with the runtime's metrics where the peer has them) instead of a
// silent hang until go test's own timeout.
const hangTimeout = 2 * time.Minute

// watchdog panics if stop is not called within hangTimeout. dump, if not nil, adds a
// description of the peer's state to the panic.
func watchdog(b *testing.B, dump func() string) (stop func()) {
	name := b.Name()
	t := time.AfterFunc(hangTimeout, func() {
		msg := fmt.Sprintf("%s: no progress after %v (b.N = %d)", name, hangTimeout, b.N)
		if dump != nil {
			msg += "\n" + dump()
		}
		fmt.Fprintln(os.Stderr, msg)
		panic(msg)
	})
	return func() { t.Stop() }
}

// measure runs op b.N times and reports ns/task, where one op performs tasksPerOp tasks (or
// yields, or queue operations). It also reports tasks/op so the report can turn allocs/op into
// allocs per task.
func measure(b *testing.B, tasksPerOp int, op func()) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op()
	}
	b.StopTimer()
	reportPerTask(b, tasksPerOp)
}

func reportPerTask(b *testing.B, tasksPerOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tasksPerOp), "ns/task")
	b.ReportMetric(float64(tasksPerOp), "tasks/op")
}

// stall burns stallDuration of CPU time, letting other goroutines run in between, like the
// stall of the Tokio benchmark (which calls thread::yield_now in its loop).
func stall() {
	start := time.Now()
	for time.Since(start) < stallDuration {
		runtime.Gosched()
	}
}

// countdown signals done when it has been decremented n times.
type countdown struct {
	rem  atomic.Int64
	done chan struct{}
}

func newCountdown() *countdown { return &countdown{done: make(chan struct{}, 1)} }

func (c *countdown) reset(n int) { c.rem.Store(int64(n)) }

// dec decrements the counter and signals done after the last decrement.
func (c *countdown) dec() {
	if c.rem.Add(-1) == 0 {
		c.done <- struct{}{}
	}
}

func (c *countdown) wait() { <-c.done }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// States of the scheduler peers' one-shot (implOneshot, specOneshot).
const (
	oneshotEmpty   uint32 = iota // nothing sent, nobody waiting
	oneshotWaiting               // the receiver stored its waker and is waiting
	oneshotSent                  // the value was sent
)
