package bench

// This file is the template for sched_spec_test.go, which `go generate` derives from it by
// switching the import to spec/sched and renaming the impl* identifiers to spec*. Edit this
// file, then run `go generate` in bench/; TestSpecSchedGenerated fails if they drift apart.

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// implNewRuntime starts a runtime for one benchmark function and shuts it down when the
// function returns. A hang panics with the runtime's metrics.
func implNewRuntime(b *testing.B, cfg sched.Config) *sched.Runtime {
	rt, err := sched.New(cfg)
	if err != nil {
		b.Fatalf("sched.New(%+v): %v", cfg, err)
	}
	stop := watchdog(b, func() string { return rt.Metrics().String() })
	b.Cleanup(func() {
		stop()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := rt.Shutdown(ctx); err != nil {
			b.Errorf("Shutdown: %v\n%s", err, rt.Metrics())
		}
	})
	return rt
}

func implMust(h *sched.JoinHandle, err error) *sched.JoinHandle {
	must(err)
	return h
}

// implSchedWorkloads runs the workloads as tasks of a sched.Runtime configured by cfg.
func implSchedWorkloads(cfg sched.Config) workloads {
	return workloads{
		spawnManyLocal: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			cd := newCountdown()
			// Go, like the go statement and Tokio's spawn with the handle dropped: no
			// handle is kept, so the runtime recycles the task records.
			dec := cd.dec
			spawner := sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				for range numSpawn {
					must(cx.Go(dec))
				}
				return sched.Ready
			})
			measure(b, numSpawn, func() {
				cd.reset(numSpawn)
				implMust(rt.Spawn(spawner))
				cd.wait()
			})
		},
		spawnManyRemoteIdle: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			implSpawnManyRemote(b, rt)
		},
		spawnManyRemoteBusy: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			var running atomic.Bool
			running.Store(true)
			busy := sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				if !running.Load() {
					return sched.Ready
				}
				stall()
				return cx.Yield()
			})
			bg := make([]*sched.JoinHandle, numBusy)
			for i := range bg {
				bg[i] = implMust(rt.Spawn(busy))
			}
			implSpawnManyRemote(b, rt)
			running.Store(false)
			for _, h := range bg {
				must(h.Wait(context.Background()))
			}
		},
		yieldMany: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			done := make(chan struct{}, yieldTasks)
			measure(b, yieldTasks*numYield, func() {
				for range yieldTasks {
					implMust(rt.Spawn(&implYielder{done: done}))
				}
				for range yieldTasks {
					<-done
				}
			})
		},
		pingPong: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			cd := newCountdown()
			root := sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				for range numPings {
					implMust(cx.Spawn(&implPing{cd: cd}))
				}
				return sched.Ready
			})
			measure(b, 2*numPings, func() {
				cd.reset(numPings)
				implMust(rt.Spawn(root))
				cd.wait()
			})
		},
		chainedSpawn: func(b *testing.B) {
			rt := implNewRuntime(b, cfg)
			done := make(chan struct{}, 1)
			measure(b, chainLen, func() {
				implMust(rt.Spawn(&implLink{n: chainLen, done: done}))
				<-done
			})
		},
	}
}

// implSpawnManyRemote spawns numSpawn empty tasks from the benchmark goroutine (so through
// the global queue), keeping the handles, then waits for each.
func implSpawnManyRemote(b *testing.B, rt *sched.Runtime) {
	handles := make([]*sched.JoinHandle, numSpawn)
	empty := sched.TaskFunc(func(*sched.Context) sched.Poll { return sched.Ready })
	ctx := context.Background()
	measure(b, numSpawn, func() {
		for i := range handles {
			handles[i] = implMust(rt.Spawn(empty))
		}
		for i, h := range handles {
			must(h.Wait(ctx))
			handles[i] = nil
		}
	})
}

// implYielder yields numYield times, then signals done.
type implYielder struct {
	n    int
	done chan<- struct{}
}

func (y *implYielder) Poll(cx *sched.Context) sched.Poll {
	if y.n == numYield {
		y.done <- struct{}{}
		return sched.Ready
	}
	y.n++
	return cx.Yield()
}

// implOneshot carries one signal from one task to another: the receiver registers its waker,
// the sender wakes it with cx.Wake, through its own worker (the production runtime's LIFO
// slot).
type implOneshot struct {
	state atomic.Uint32 // oneshotEmpty, oneshotWaiting or oneshotSent
	waker sched.Waker   // written by the receiver before it publishes oneshotWaiting
}

func (o *implOneshot) send(cx *sched.Context) {
	if o.state.Swap(oneshotSent) == oneshotWaiting {
		cx.Wake(o.waker)
	}
}

// ready reports whether the signal was sent. If not, the current task is woken once it is.
func (o *implOneshot) ready(cx *sched.Context) bool {
	switch o.state.Load() {
	case oneshotSent:
		return true
	case oneshotWaiting: // polled again before the send; the waker is already there
		return false
	}
	o.waker = cx.Waker()
	return !o.state.CompareAndSwap(oneshotEmpty, oneshotWaiting)
}

// implPing spawns a pong, signals it through o1 and waits for its answer on o2.
type implPing struct {
	started bool
	o1, o2  implOneshot
	cd      *countdown
}

func (p *implPing) Poll(cx *sched.Context) sched.Poll {
	if !p.started {
		p.started = true
		implMust(cx.Spawn(&implPong{o1: &p.o1, o2: &p.o2}))
		p.o1.send(cx)
	}
	if !p.o2.ready(cx) {
		return sched.Pending
	}
	p.cd.dec()
	return sched.Ready
}

type implPong struct{ o1, o2 *implOneshot }

func (p *implPong) Poll(cx *sched.Context) sched.Poll {
	if !p.o1.ready(cx) {
		return sched.Pending
	}
	p.o2.send(cx)
	return sched.Ready
}

// implLink is one link of ChainedSpawn: it spawns the next link, or signals done if it is
// the last.
type implLink struct {
	n    int
	done chan<- struct{}
}

func (l *implLink) Poll(cx *sched.Context) sched.Poll {
	if l.n == 0 {
		l.done <- struct{}{}
		return sched.Ready
	}
	implMust(cx.Spawn(&implLink{n: l.n - 1, done: l.done}))
	return sched.Ready
}

// implFeelTarget is the runtime as the idle-CPU and wake-latency benchmarks see it
// (feel_test.go): a spawn from outside and a task woken through its Waker.
func implFeelTarget(cfg sched.Config) func(b *testing.B) feelTarget {
	return func(b *testing.B) feelTarget {
		rt := implNewRuntime(b, cfg)
		return feelTarget{
			spawn: func(f func()) { must(rt.Go(f)) },
			wait: func(registered chan<- func(), f func()) {
				implMust(rt.Spawn(&implWaiter{registered: registered, f: f}))
			},
		}
	}
}

// implWaiter hands its waker's Wake to registered on its first poll and returns Pending; its
// second poll runs f.
type implWaiter struct {
	registered chan<- func()
	f          func()
	armed      bool
}

func (w *implWaiter) Poll(cx *sched.Context) sched.Poll {
	if !w.armed {
		w.armed = true
		w.registered <- cx.Waker().Wake
		return sched.Pending
	}
	w.f()
	return sched.Ready
}
