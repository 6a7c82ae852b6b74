package sched

import (
	"fmt"
	"runtime"
	"time"
)

// ParkerKind selects what an idle worker sleeps on.
type ParkerKind uint8

const (
	// ParkerDefault is the faster of the two on the benchmarks
	// (BenchmarkRoundTrip in impl/park): the channel parker.
	ParkerDefault ParkerKind = iota
	// ParkerChannel parks on a one-slot buffered channel.
	ParkerChannel
	// ParkerFutex parks on a futex word; Linux only. Elsewhere New
	// returns an error. Its throughput is close to the channel parker's
	// where workers rarely sleep, but each wake of a sleeping worker
	// wakes an OS thread (tens of microseconds at the median, against a
	// few for the channel parker: docs/performance.md, wake latency),
	// and a sleeping worker holds that thread. It is there as the seeds'
	// protocol, run and checked (explorer, weak memory), for ports to
	// languages whose workers are threads; a Go program has no reason to
	// choose it over the default.
	ParkerFutex
)

func (k ParkerKind) String() string {
	switch k {
	case ParkerDefault:
		return "default"
	case ParkerChannel:
		return "channel"
	case ParkerFutex:
		return "futex"
	}
	return fmt.Sprintf("ParkerKind(%d)", uint8(k))
}

// Config is the runtime's configuration. Use DefaultConfig and change what
// you need.
type Config struct {
	Workers     int           // 1..64
	ParkTimeout time.Duration // 0: a parked worker sleeps until woken; < 0: error
	// DisableStealing stops workers from taking tasks out of each other's
	// rings: a worker runs what it spawned (and woke) itself, and what it
	// takes from the global queue. It is for measuring what stealing
	// buys. The monitor's help is not switched off with it: the tasks
	// queued behind a worker stuck in a long poll are still taken by
	// other workers, so that no queued task waits for a poll that blocks
	// while a worker could run it (switch that off with LongPoll < 0).
	DisableStealing bool
	Parker          ParkerKind

	// LongPoll is how long a worker may stay in one poll (or in 16 polls
	// in a row) while tasks wait behind it before the monitor helps: it
	// wakes a parked worker to take them, or, when none is parked,
	// starts an extra worker. 0 means 1 ms; negative switches the help
	// off (the monitor then only fires timers, and a poll that blocks
	// can hold up other queued tasks). A positive value below
	// MinLongPoll is an error: the monitor looks every LongPoll/2, and a
	// unit-less 1 (one nanosecond, meant as a millisecond) would make it
	// spin a processor or, rounded to 0, never look.
	LongPoll time.Duration
	// ExtraWorkers is the most extra worker goroutines the monitor runs
	// at once, beyond Workers, while workers are stuck in long polls.
	// 0 means 256; negative means none (a stuck worker's tasks are then
	// only taken by parked workers it wakes).
	ExtraWorkers int
}

// DefaultConfig returns min(GOMAXPROCS, 64) workers, a 10 ms park timeout,
// stealing on, the default parker, help for long polls after 1 ms, and up
// to 256 extra workers.
func DefaultConfig() Config {
	return Config{
		Workers:     min(runtime.GOMAXPROCS(0), maxWorkers),
		ParkTimeout: defaultParkTimeout,
	}
}

func (c Config) validate() error {
	if c.Workers < 1 || c.Workers > maxWorkers {
		return fmt.Errorf("%w: Workers = %d, want 1..%d", ErrInvalidConfig, c.Workers, maxWorkers)
	}
	if c.ParkTimeout < 0 {
		return fmt.Errorf("%w: ParkTimeout = %v, want >= 0", ErrInvalidConfig, c.ParkTimeout)
	}
	if c.Parker > ParkerFutex {
		return fmt.Errorf("%w: unknown Parker %v", ErrInvalidConfig, c.Parker)
	}
	if c.LongPoll > 0 && c.LongPoll < MinLongPoll {
		return fmt.Errorf("%w: LongPoll = %v, want 0 (the default, %v), negative (no help) or at least %v (a Duration counts nanoseconds: write 5 * time.Millisecond, not 5)",
			ErrInvalidConfig, c.LongPoll, defaultLongPoll, MinLongPoll)
	}
	if c.ExtraWorkers > maxExtraWorkers {
		return fmt.Errorf("%w: ExtraWorkers = %d, want at most %d", ErrInvalidConfig, c.ExtraWorkers, maxExtraWorkers)
	}
	return nil
}

// longPoll is the LongPoll in effect: the default for 0, 0 for off.
func (c Config) longPoll() time.Duration {
	switch {
	case c.LongPoll == 0:
		return defaultLongPoll
	case c.LongPoll < 0:
		return 0
	}
	return c.LongPoll
}

// MinLongPoll is the smallest positive Config.LongPoll: the monitor then
// looks every 50 µs while workers run.
const MinLongPoll = 100 * time.Microsecond

// DefaultExtraWorkers is what Config.ExtraWorkers = 0 means.
const DefaultExtraWorkers = defaultExtraWorkers

// extraWorkers is the ExtraWorkers in effect.
func (c Config) extraWorkers() int {
	switch {
	case c.ExtraWorkers == 0:
		return defaultExtraWorkers
	case c.ExtraWorkers < 0:
		return 0
	}
	return c.ExtraWorkers
}
