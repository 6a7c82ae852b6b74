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
	// returns an error.
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
	Workers         int           // 1..64
	ParkTimeout     time.Duration // 0: a parked worker sleeps until woken; < 0: error
	DisableStealing bool
	Parker          ParkerKind
}

// DefaultConfig returns min(GOMAXPROCS, 64) workers, a 10 ms park timeout,
// stealing on, the default parker.
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
	return nil
}
