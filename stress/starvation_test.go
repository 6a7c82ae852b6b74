package stress

import (
	"runtime"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedStarvedWorkersFewExtras: CPU-bound polls on more workers than
// processors, more tasks than workers. Every poll outlasts LongPoll and
// every worker waits for a processor most of the time, so by tick count
// every worker looks stuck, always, with tasks waiting; yet none is
// blocked, and extra workers would only compete for the same processors.
// The monitor must tell (impl/sched/starvation.go): the extra workers it
// starts stay few, and Shutdown, which waits for every poll under way,
// stays prompt.
//
// Both as ratios within the run: the extra workers started against the
// workers (a monitor that takes every such look for a blocked poll starts
// one per look, on a quiet machine hundreds in the run, up to the budget
// of 256; paced, about one per doubling of the time since the first), and
// the Shutdown's time against that of a runtime without the monitor's
// help (LongPoll < 0: no extra worker at all) running the same load.
func TestSchedStarvedWorkersFewExtras(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	workers := 8 * procs
	const (
		spin     = 100 * time.Millisecond // each poll's busy loop
		longPoll = time.Millisecond       // the default
		load     = 1500 * time.Millisecond
	)
	run := func(cfg sched.Config) (started uint64, ran, shutdown time.Duration) {
		e := newSchedEnv(t, cfg)
		begin := time.Now()
		for range 8 * workers {
			e.spawn(func(cx *sched.Context) sched.Poll {
				for from := time.Now(); time.Since(from) < spin; {
				}
				return sched.Ready
			})
		}
		time.Sleep(load)
		started = e.rt.Metrics().ExtraStarted
		ran = time.Since(begin)
		from := time.Now()
		e.shutdown()
		shutdown = time.Since(from)
		return started, ran, shutdown
	}
	_, _, alone := run(sched.Config{Workers: workers, LongPoll: -1})
	started, ran, shutdown := run(sched.Config{Workers: workers, LongPoll: longPoll})
	perWorker := float64(started) / float64(workers)
	slower := float64(shutdown) / float64(max(alone, spin))
	t.Logf("%d workers on %d processors, polls of %v: %d extra workers started in %v (%.2f per worker); Shutdown %v, %v without the monitor's help (%.1f times)",
		workers, procs, spin, started, ran.Round(time.Millisecond), perWorker, shutdown.Round(time.Millisecond), alone.Round(time.Millisecond), slower)
	if perWorker > 1 {
		t.Errorf("%d extra workers started in %v beside %d workers: %.2f per worker, want at most 1 (the stuck workers only wait for a processor)", started, ran, workers, perWorker)
	}
	if slower > 8 {
		t.Errorf("Shutdown took %v, %.1f times the %v of the same load without extra workers (want at most 8)", shutdown, slower, alone)
	}
}
