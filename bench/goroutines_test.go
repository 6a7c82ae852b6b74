package bench

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// goroutineWorkloads is the baseline: one goroutine per task, channels for one-shots and
// handles, runtime.Gosched for a yield. It has no worker count; GOMAXPROCS decides.
func goroutineWorkloads() workloads {
	return workloads{
		spawnManyLocal: func(b *testing.B) {
			cd := newCountdown()
			spawner := func() {
				for range numSpawn {
					go cd.dec()
				}
			}
			measure(b, numSpawn, func() {
				cd.reset(numSpawn)
				go spawner()
				cd.wait()
			})
		},
		spawnManyRemoteIdle: func(b *testing.B) {
			goroutineSpawnManyRemote(b)
		},
		spawnManyRemoteBusy: func(b *testing.B) {
			var running atomic.Bool
			var wg sync.WaitGroup
			running.Store(true)
			for range numBusy {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for running.Load() {
						runtime.Gosched()
						stall()
					}
				}()
			}
			goroutineSpawnManyRemote(b)
			running.Store(false)
			wg.Wait()
		},
		yieldMany: func(b *testing.B) {
			done := make(chan struct{}, yieldTasks)
			yielder := func() {
				for range numYield {
					runtime.Gosched()
				}
				done <- struct{}{}
			}
			measure(b, yieldTasks*numYield, func() {
				for range yieldTasks {
					go yielder()
				}
				for range yieldTasks {
					<-done
				}
			})
		},
		pingPong: func(b *testing.B) {
			cd := newCountdown()
			ping := func() {
				tx1 := make(chan struct{}, 1)
				tx2 := make(chan struct{}, 1)
				go func() {
					<-tx1
					tx2 <- struct{}{}
				}()
				tx1 <- struct{}{}
				<-tx2
				cd.dec()
			}
			root := func() {
				for range numPings {
					go ping()
				}
			}
			measure(b, 2*numPings, func() {
				cd.reset(numPings)
				go root()
				cd.wait()
			})
		},
		chainedSpawn: func(b *testing.B) {
			done := make(chan struct{}, 1)
			var iter func(n int)
			iter = func(n int) {
				if n == 0 {
					done <- struct{}{}
					return
				}
				go iter(n - 1)
			}
			measure(b, chainLen, func() {
				go iter(chainLen)
				<-done
			})
		},
	}
}

// goroutineSpawnManyRemote starts numSpawn empty goroutines from the benchmark goroutine,
// each with its own handle (a channel closed on exit), then waits for every handle.
func goroutineSpawnManyRemote(b *testing.B) {
	handles := make([]chan struct{}, numSpawn)
	measure(b, numSpawn, func() {
		for i := range handles {
			h := make(chan struct{})
			handles[i] = h
			go close(h)
		}
		for i, h := range handles {
			<-h
			handles[i] = nil
		}
	})
}
