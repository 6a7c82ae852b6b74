package bench

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/alitto/pond/v2"
	"github.com/gammazero/workerpool"
	"github.com/panjf2000/ants/v2"
)

// pool is the little a workload needs from a pool of func() workers.
type pool interface {
	// submit runs f on the pool some time later; it may be called from inside a task.
	submit(f func())
	// spawn is submit with a handle to wait on.
	spawn(f func()) handle
	// stop waits for the queued work and releases the workers.
	stop()
}

type handle interface{ Wait() error }

// chanHandle is the handle of pools that do not return one: a channel closed after f ran.
type chanHandle chan struct{}

func (h chanHandle) Wait() error {
	<-h
	return nil
}

func spawnWithChan(submit func(func()), f func()) handle {
	h := make(chanHandle)
	submit(func() {
		f()
		close(h)
	})
	return h
}

// pondPool: github.com/alitto/pond/v2 with numWorkers workers and its default unbounded queue,
// so a task may submit without blocking. Submit returns pond's own handle.
type pondPool struct{ p pond.Pool }

func newPondPool() pool { return pondPool{pond.NewPool(numWorkers)} }

func (p pondPool) submit(f func()) {
	if err := p.p.Go(f); err != nil {
		panic(err)
	}
}
func (p pondPool) spawn(f func()) handle { return p.p.Submit(f) }
func (p pondPool) stop()                 { p.p.StopAndWait() }

// antsCapacity is the size of the ants pool. ants has no queue: Submit blocks until one of
// its workers is free, so at a capacity of 4, four tasks that each submit at once deadlock
// the pool; SpawnManyRemoteBusy, YieldMany and PingPong do. 4096 is above the number of
// submitting tasks any workload has in flight (at most 2*numPings+1, in PingPong), so ants
// here runs with up to 4096 goroutines, not 4.
const antsCapacity = 4096

type antsPool struct{ p *ants.Pool }

func newAntsPool() pool {
	p, err := ants.NewPool(antsCapacity)
	if err != nil {
		panic(err)
	}
	return antsPool{p}
}

func (p antsPool) submit(f func()) {
	if err := p.p.Submit(f); err != nil {
		panic(err)
	}
}
func (p antsPool) spawn(f func()) handle { return spawnWithChan(p.submit, f) }
func (p antsPool) stop()                 { p.p.Release() }

// workerpoolPool: github.com/gammazero/workerpool with numWorkers workers; its Submit never
// blocks (an unbounded waiting queue sits in front of the workers).
type workerpoolPool struct{ p *workerpool.WorkerPool }

func newWorkerpoolPool() pool { return workerpoolPool{workerpool.New(numWorkers)} }

func (p workerpoolPool) submit(f func())       { p.p.Submit(f) }
func (p workerpoolPool) spawn(f func()) handle { return spawnWithChan(p.submit, f) }
func (p workerpoolPool) stop()                 { p.p.StopWait() }

// contOneshot is a one-shot for pools: instead of a task waiting for a wake, the waiter leaves
// a continuation, and the sender submits it (the pool's equivalent of a wake). Exactly one send
// and one await per one-shot.
type contOneshot struct{ state atomic.Pointer[continuation] }

type continuation struct{ f func() }

// sentMark in state means the value was sent before anyone waited.
var sentMark = new(continuation)

func (o *contOneshot) send(submit func(func())) {
	if k := o.state.Swap(sentMark); k != nil {
		submit(k.f)
	}
}

// await runs k once the one-shot has been sent: inline if it already was (like awaiting a
// ready one-shot), otherwise the sender submits it.
func (o *contOneshot) await(k func()) {
	if o.state.CompareAndSwap(nil, &continuation{k}) {
		return
	}
	k()
}

// poolWorkloads expresses the workloads with submits only. A yield is a resubmit of the rest
// of the task; awaiting a one-shot is a continuation (see contOneshot).
func poolWorkloads(newPool func() pool) workloads {
	return workloads{
		spawnManyLocal: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			cd := newCountdown()
			dec := cd.dec
			spawner := func() {
				for range numSpawn {
					p.submit(dec)
				}
			}
			measure(b, numSpawn, func() {
				cd.reset(numSpawn)
				p.submit(spawner)
				cd.wait()
			})
		},
		spawnManyRemoteIdle: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			poolSpawnManyRemote(b, p)
		},
		spawnManyRemoteBusy: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			var running atomic.Bool
			var wg sync.WaitGroup
			running.Store(true)
			var loop func()
			loop = func() {
				if !running.Load() {
					wg.Done()
					return
				}
				stall()
				p.submit(loop) // the yield
			}
			for range numBusy {
				wg.Add(1)
				p.submit(loop)
			}
			poolSpawnManyRemote(b, p)
			running.Store(false)
			wg.Wait()
		},
		yieldMany: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			done := make(chan struct{}, yieldTasks)
			measure(b, yieldTasks*numYield, func() {
				for range yieldTasks {
					n := 0
					var step func()
					step = func() {
						if n == numYield {
							done <- struct{}{}
							return
						}
						n++
						p.submit(step) // the yield
					}
					p.submit(step)
				}
				for range yieldTasks {
					<-done
				}
			})
		},
		pingPong: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			cd := newCountdown()
			ping := func() {
				o1, o2 := new(contOneshot), new(contOneshot)
				p.submit(func() { // pong
					o1.await(func() { o2.send(p.submit) })
				})
				o1.send(p.submit)
				o2.await(cd.dec)
			}
			root := func() {
				for range numPings {
					p.submit(ping)
				}
			}
			measure(b, 2*numPings, func() {
				cd.reset(numPings)
				p.submit(root)
				cd.wait()
			})
		},
		chainedSpawn: func(b *testing.B) {
			p := newPool()
			defer p.stop()
			defer watchdog(b, nil)()
			done := make(chan struct{}, 1)
			var iter func(n int)
			iter = func(n int) {
				if n == 0 {
					done <- struct{}{}
					return
				}
				p.submit(func() { iter(n - 1) })
			}
			start := func() { iter(chainLen) }
			measure(b, chainLen, func() {
				p.submit(start)
				<-done
			})
		},
	}
}

// poolSpawnManyRemote spawns numSpawn empty tasks from the benchmark goroutine, keeping the
// handles, then waits for each.
func poolSpawnManyRemote(b *testing.B, p pool) {
	handles := make([]handle, numSpawn)
	empty := func() {}
	measure(b, numSpawn, func() {
		for i := range handles {
			handles[i] = p.spawn(empty)
		}
		for i, h := range handles {
			must(h.Wait())
			handles[i] = nil
		}
	})
}
