package sched_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/schedtest"
)

// TestBehaviour runs the shared behaviour suite against this package.
func TestBehaviour(t *testing.T) {
	schedtest.Run(t, schedtest.Impl{
		Name: "impl/sched",
		New: func(cfg schedtest.Config) (schedtest.Runtime, error) {
			rt, err := sched.New(sched.Config{Workers: cfg.Workers, ParkTimeout: cfg.ParkTimeout, LongPoll: cfg.LongPoll})
			if err != nil {
				return nil, err
			}
			return runtimeAdapter{rt}, nil
		},
		ExtraWorkers: sched.DefaultExtraWorkers,
		ZeroWaker:    wakerAdapter{},
		PanicValue: func(err error) (any, bool) {
			var pe *sched.PanicError
			if !errors.As(err, &pe) {
				return nil, false
			}
			return pe.Value, true
		},
		SpawnNilFunc: func(rt schedtest.Runtime) (schedtest.Handle, error) {
			return handle(rt.(runtimeAdapter).rt.Spawn(sched.TaskFunc(nil)))
		},
		ErrInvalidConfig:      sched.ErrInvalidConfig,
		ErrNilTask:            sched.ErrNilTask,
		ErrShutdown:           sched.ErrShutdown,
		ErrCancelled:          sched.ErrCancelled,
		ErrNegativeDuration:   sched.ErrNegativeDuration,
		ErrGoexit:             sched.ErrGoexit,
		ErrShutdownInsideTask: sched.ErrShutdownInsideTask,
	})
}

// The adapters below are the same in every scheduler package that runs the
// suite; only the imported package differs.

type runtimeAdapter struct{ rt *sched.Runtime }

func (a runtimeAdapter) Spawn(f schedtest.PollFunc) (schedtest.Handle, error) {
	return handle(a.rt.Spawn(task(f)))
}

func (a runtimeAdapter) SpawnFunc(f func()) (schedtest.Handle, error) {
	return handle(a.rt.Spawn(sched.Func(f)))
}

func (a runtimeAdapter) Go(f func()) error { return a.rt.Go(f) }

func (a runtimeAdapter) Shutdown(ctx context.Context) error { return a.rt.Shutdown(ctx) }

func (a runtimeAdapter) Metrics() schedtest.Metrics {
	m := a.rt.Metrics()
	parked := 0
	for _, w := range m.Workers {
		if w.State == "parked" {
			parked++
		}
	}
	return schedtest.Metrics{
		Workers:        len(m.Workers),
		Parked:         parked,
		ExtraRunning:   m.ExtraRunning,
		Polls:          m.TotalPolls(),
		Spawned:        m.Spawned,
		Completed:      m.Completed,
		Cancelled:      m.Cancelled,
		Panicked:       m.Panicked,
		GlobalQueueLen: m.GlobalQueueLen,
		Searching:      m.Searching,
		Dump:           m.String(),
	}
}

// task turns a suite body into a sched.Task; nil stays a nil Task.
func task(f schedtest.PollFunc) sched.Task {
	if f == nil {
		return nil
	}
	return sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		return sched.Poll(f(ctxAdapter{cx}))
	})
}

// handle keeps a failed spawn's handle a nil interface.
func handle(h *sched.JoinHandle, err error) (schedtest.Handle, error) {
	if err != nil {
		return nil, err
	}
	return h, nil
}

type ctxAdapter struct{ cx *sched.Context }

func (a ctxAdapter) Waker() schedtest.Waker      { return wakerAdapter{a.cx.Waker()} }
func (a ctxAdapter) Yield() schedtest.Poll       { return schedtest.Poll(a.cx.Yield()) }
func (a ctxAdapter) Wake(w schedtest.Waker)      { a.cx.Wake(w.(wakerAdapter).w) }
func (a ctxAdapter) Sleep(d time.Duration) error { return a.cx.Sleep(d) }
func (a ctxAdapter) Worker() int                 { return a.cx.Worker() }
func (a ctxAdapter) Go(f func()) error           { return a.cx.Go(f) }
func (a ctxAdapter) Spawn(f schedtest.PollFunc) (schedtest.Handle, error) {
	return handle(a.cx.Spawn(task(f)))
}
func (a ctxAdapter) SpawnFunc(f func()) (schedtest.Handle, error) {
	return handle(a.cx.Spawn(sched.Func(f)))
}

type wakerAdapter struct{ w sched.Waker }

func (a wakerAdapter) Wake() { a.w.Wake() }
