package bench

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// What a user feels besides throughput: the CPU a peer burns when there is little to do
// (BenchmarkIdleCPU) and how long a task waits between the call that makes it runnable and
// the start of its run when the peer was idle (BenchmarkWakeLatency). These benchmarks report
// their own units (cpu-s/s, p50-ns, p99-ns), not ns/task; cmd/report shows them in a section
// of their own.

const (
	// feelWindow is one iteration of BenchmarkIdleCPU: this much wall time at a given load.
	feelWindow = 20 * time.Millisecond
	// feelSettle is how long a peer is left alone after it starts (or after a sample), so
	// that its workers have gone idle: searching and parking take microseconds.
	feelSettle = 200 * time.Microsecond
)

// feelTarget is what the two benchmarks need from a peer.
type feelTarget struct {
	// spawn runs f as a task of the peer; it is called from outside the peer.
	spawn func(f func())
	// wait starts a task that hands a wake function to registered and then waits; once
	// woken (the wake function called from outside the peer) it runs f. For the pools,
	// which have no waiting task, waking is submitting f (the continuation).
	wait func(registered chan<- func(), f func())
}

type feelPeer struct {
	name  string
	start func(b *testing.B) feelTarget
}

// feelPeers are the peers of the scheduler workloads, plus the production runtime with the
// rescue of stranded tasks off (LongPoll < 0), whose monitor does not run.
func feelPeers() []feelPeer {
	ps := []feelPeer{{"goroutines", func(*testing.B) feelTarget {
		return feelTarget{
			spawn: func(f func()) { go f() },
			wait: func(registered chan<- func(), f func()) {
				ch := make(chan struct{}, 1)
				go func() {
					registered <- func() { ch <- struct{}{} }
					<-ch
					f()
				}()
			},
		}
	}}}
	for _, p := range []struct {
		name string
		new  func() pool
	}{{"pond", newPondPool}, {"ants", newAntsPool}, {"workerpool", newWorkerpoolPool}} {
		ps = append(ps, feelPeer{p.name, func(b *testing.B) feelTarget {
			pl := p.new()
			b.Cleanup(pl.stop)
			return feelTarget{
				spawn: pl.submit,
				wait: func(registered chan<- func(), f func()) {
					registered <- func() { pl.submit(f) }
				},
			}
		}})
	}
	spec := specSchedPeerConfig()
	ps = append(ps, feelPeer{"spec", specFeelTarget(spec)})
	for _, c := range implSchedPeerConfigs() {
		ps = append(ps, feelPeer{c.name, implFeelTarget(c.cfg)})
	}
	return ps
}

// processCPU is the CPU time (user and system) the process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIdleCPU: CPU seconds the whole process burns per wall second while the peer is
// idle (load=idle) and while the benchmark goroutine feeds it one empty task per 1 ms or per
// 100 µs from outside (load=1ms, load=100us). The benchmark goroutine's own sleeping and
// waking is in every row: the goroutines row is the floor. tasks/s is the rate achieved (a
// sleep shorter than the timer's resolution is caught up with a burst, so the average holds).
func BenchmarkIdleCPU(b *testing.B) {
	for _, load := range []struct {
		name   string
		period time.Duration
	}{{"idle", 0}, {"1ms", time.Millisecond}, {"100us", 100 * time.Microsecond}} {
		for _, p := range feelPeers() {
			b.Run(fmt.Sprintf("load=%s/peer=%s", load.name, p.name), func(b *testing.B) {
				idleCPU(b, p.start(b), load.period)
			})
		}
	}
}

func idleCPU(b *testing.B, t feelTarget, period time.Duration) {
	var ran atomic.Int64
	f := func() { ran.Add(1) }
	time.Sleep(feelSettle)
	runtime.GC() // not during the windows
	b.ResetTimer()
	cpu0, wall0 := processCPU(), time.Now()
	spawned := int64(0)
	for range b.N {
		start := time.Now()
		if period == 0 {
			time.Sleep(feelWindow)
			continue
		}
		for sent := int64(0); ; {
			time.Sleep(period)
			el := time.Since(start)
			if el >= feelWindow {
				break
			}
			for ; sent < int64(el/period); sent++ {
				t.spawn(f)
				spawned++
			}
		}
	}
	cpu, wall := processCPU()-cpu0, time.Since(wall0)
	b.StopTimer()
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cpu-s/s")
	b.ReportMetric(float64(spawned)/wall.Seconds(), "tasks/s")
}

// BenchmarkWakeLatency: the time from the call that makes a task runnable to the start of
// its run, with the peer idle (left alone feelSettle first): a spawn from outside
// (from=spawn), and a Wake, from outside, of a task waiting on its waker (from=wake; the
// goroutines row sends on the channel a goroutine is blocked on, the pools submit the
// continuation). One iteration is one sample; p50-ns and p99-ns are over the run's samples.
func BenchmarkWakeLatency(b *testing.B) {
	for _, from := range []string{"spawn", "wake"} {
		for _, p := range feelPeers() {
			b.Run(fmt.Sprintf("from=%s/peer=%s", from, p.name), func(b *testing.B) {
				wakeLatency(b, p.start(b), from == "wake")
			})
		}
	}
}

func wakeLatency(b *testing.B, t feelTarget, viaWake bool) {
	started := make(chan time.Time, 1)
	f := func() { started <- time.Now() }
	registered := make(chan func(), 1)
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		var wake func()
		if viaWake {
			t.wait(registered, f)
			wake = <-registered
		}
		time.Sleep(feelSettle)
		t0 := time.Now()
		if viaWake {
			wake()
		} else {
			t.spawn(f)
		}
		samples = append(samples, (<-started).Sub(t0))
	}
	b.StopTimer()
	slices.Sort(samples)
	q := func(p float64) float64 { return float64(samples[int(p*float64(len(samples)-1))].Nanoseconds()) }
	b.ReportMetric(q(0.50), "p50-ns")
	b.ReportMetric(q(0.99), "p99-ns")
	b.ReportMetric(float64(len(samples)), "samples")
}
