package sched

import (
	"fmt"
	"runtime"
	"time"
)

// maxWorkers is the largest number of workers a runtime may have. The
// production scheduler keeps one bit per parked worker in a 64-bit word.
const maxWorkers = 64

// ParkerKind selects how an idle production worker sleeps. This package has
// one way only (the condition variable) and accepts the kinds for
// compatibility.
type ParkerKind uint8

const (
	ParkerDefault ParkerKind = iota // whichever the production scheduler finds faster
	ParkerChannel                   // a one-slot channel per worker
	ParkerFutex                     // a futex; Linux only
)

// Config describes a runtime.
type Config struct {
	// Workers is the number of worker goroutines, 1..maxWorkers.
	Workers int
	// ParkTimeout bounds how long an idle production worker sleeps; 0 means
	// no bound. Negative values are rejected. Ignored here: a worker waiting
	// on the condition variable is woken by every enqueue that needs it.
	ParkTimeout time.Duration
	// DisableStealing turns off work stealing in the production scheduler.
	// Ignored here: there is only one queue.
	DisableStealing bool
	// Parker selects the production parker. Validated, then ignored.
	Parker ParkerKind

	// LongPoll is how long every worker may be inside a poll, while a
	// task waits in the queue, before the runtime starts an extra worker
	// to run it. 0 means 1 ms; negative means never (then tasks that wait
	// for each other inside their polls can wait for ever); a positive
	// value below MinLongPoll is rejected, as in the production scheduler.
	LongPoll time.Duration
	// ExtraWorkers is the most extra workers running at once. 0 means
	// DefaultExtraWorkers; negative means none.
	ExtraWorkers int
}

// MinLongPoll is the smallest positive Config.LongPoll.
const MinLongPoll = 100 * time.Microsecond

// DefaultExtraWorkers is what Config.ExtraWorkers = 0 means.
const DefaultExtraWorkers = 256

// longPoll is the LongPoll in effect (0: never).
func (cfg Config) longPoll() time.Duration {
	switch {
	case cfg.LongPoll == 0:
		return time.Millisecond
	case cfg.LongPoll < 0:
		return 0
	}
	return cfg.LongPoll
}

// extraWorkers is the ExtraWorkers in effect.
func (cfg Config) extraWorkers() int {
	switch {
	case cfg.ExtraWorkers == 0:
		return DefaultExtraWorkers
	case cfg.ExtraWorkers < 0:
		return 0
	}
	return cfg.ExtraWorkers
}

// DefaultConfig returns min(GOMAXPROCS, maxWorkers) workers, a 10 ms park
// timeout and stealing on.
func DefaultConfig() Config {
	return Config{
		Workers:     min(runtime.GOMAXPROCS(0), maxWorkers),
		ParkTimeout: 10 * time.Millisecond,
	}
}

// validate reports why cfg is unusable, wrapping ErrInvalidConfig, or nil.
func (cfg Config) validate() error {
	switch {
	case cfg.Workers < 1 || cfg.Workers > maxWorkers:
		return fmt.Errorf("%w: Workers = %d, want 1..%d", ErrInvalidConfig, cfg.Workers, maxWorkers)
	case cfg.ParkTimeout < 0:
		return fmt.Errorf("%w: negative ParkTimeout %v", ErrInvalidConfig, cfg.ParkTimeout)
	case cfg.Parker > ParkerFutex:
		return fmt.Errorf("%w: unknown Parker %d", ErrInvalidConfig, cfg.Parker)
	case cfg.Parker == ParkerFutex && runtime.GOOS != "linux":
		return fmt.Errorf("%w: the futex parker needs Linux", ErrInvalidConfig)
	case cfg.LongPoll > 0 && cfg.LongPoll < MinLongPoll:
		return fmt.Errorf("%w: LongPoll = %v, want 0, negative or at least %v (a Duration counts nanoseconds)", ErrInvalidConfig, cfg.LongPoll, MinLongPoll)
	case cfg.ExtraWorkers > 10_000:
		return fmt.Errorf("%w: ExtraWorkers = %d, want at most 10000", ErrInvalidConfig, cfg.ExtraWorkers)
	}
	return nil
}
