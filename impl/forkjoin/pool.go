package forkjoin

import (
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/deque"
	"github.com/wsched/wsched/impl/internal/raceedge"
)

// MaxWorkers bounds Config.Workers. The sleep counters hold the number of
// sleeping workers in 32 bits, so the real limit is far higher; 64 matches
// the scheduler's limit and keeps the linear scans (steal, wake) short.
const MaxWorkers = 64

// DefaultSleepTimeout is how long a sleeping worker waits, when
// Config.SleepTimeout is 0, before it wakes by itself and looks for work
// again. It is a safety net, not part of the wake protocol: with
// Config.NoSleepTimeout a worker sleeps until it is woken, which is how the
// stress tests run, so that a lost wakeup shows as a hang.
const DefaultSleepTimeout = 10 * time.Millisecond

// Config configures a Pool.
type Config struct {
	// Workers is the number of worker goroutines, 1 to MaxWorkers.
	Workers int
	// SleepTimeout bounds one sleep of an idle worker; 0 means
	// DefaultSleepTimeout. Negative is an error.
	SleepTimeout time.Duration
	// NoSleepTimeout makes idle workers sleep until woken, however long.
	NoSleepTimeout bool
}

// Pool is a fixed set of workers that run fork-join computations. Make one
// with New: the zero Pool has no workers, and Run and Close panic on it.
type Pool struct {
	workers  []*Worker
	injector injector
	sleep    sleep

	// closed is set once by Close; Run, Join and Scope check it.
	closed atomic.Bool
	// mu orders Run's registration in inflight against Close.
	mu       sync.Mutex
	inflight sync.WaitGroup
	stopped  sync.WaitGroup
}

// New starts a pool. It returns ErrWorkers or ErrSleepTimeout for a bad
// configuration.
func New(cfg Config) (*Pool, error) {
	p, err := build(cfg)
	if err != nil {
		return nil, err
	}
	p.stopped.Add(len(p.workers))
	for _, w := range p.workers {
		sync.Go("fj worker", w.index, w.main)
	}
	return p, nil
}

// build makes the pool New starts: its workers, deques and sleep state,
// with no goroutine running yet.
func build(cfg Config) (*Pool, error) {
	if cfg.Workers < 1 || cfg.Workers > MaxWorkers {
		return nil, ErrWorkers
	}
	if cfg.SleepTimeout < 0 {
		return nil, ErrSleepTimeout
	}
	timeout := cfg.SleepTimeout
	if timeout == 0 {
		timeout = DefaultSleepTimeout
	}
	if cfg.NoSleepTimeout {
		timeout = 0
	}
	p := &Pool{}
	p.sleep.init(cfg.Workers, timeout)
	p.workers = make([]*Worker, cfg.Workers)
	for i := range p.workers {
		d, err := deque.New[job](deque.DefaultCapacity)
		if err != nil {
			panic(err) // DefaultCapacity is a power of two
		}
		p.workers[i] = &Worker{pool: p, index: i, deque: (*jobDeque)(d), rng: uint64(i)*0x9E3779B97F4A7C15 + 1}
	}
	return p, nil
}

// Workers returns the number of workers (0 for the zero Pool, which is
// not usable: make pools with New).
func (p *Pool) Workers() int { return len(p.workers) }

// Run runs f on a worker of the pool and waits for it to return, including
// everything it joined or spawned. A panic in any of those is returned as a
// *PanicError. Run returns ErrClosed after Close and ErrNilFunc for a nil f.
//
// Run is for code outside the pool. Called from inside one of its jobs it
// blocks that job's worker until another worker has run f; on a pool of
// one worker that would never happen, and Run returns ErrInsideJob
// instead. Inside a job, use the Worker's Join and Scope. A job that calls
// runtime.Goexit makes Run return a *PanicError whose Value is ErrGoexit.
func (p *Pool) Run(f func(*Worker)) error {
	if p.workers == nil {
		panic(zeroPool)
	}
	if f == nil {
		return ErrNilFunc
	}
	// Only one worker makes a Run from a job a certain deadlock, and
	// telling a job from outside costs a stack-trace read (about 2 µs,
	// more than an empty Run), so only then is it asked.
	if len(p.workers) == 1 && p.insideJob() {
		return ErrInsideJob
	}
	p.mu.Lock()
	// Observes Close, which stores closed under the same mutex; the
	// mutex orders it, so relaxed would do.
	if p.closed.LoadRelaxed() {
		p.mu.Unlock()
		return ErrClosed
	}
	p.inflight.Add(1)
	p.mu.Unlock()
	defer p.inflight.Done()

	j := &job{fn: f, done: make(chan struct{})}
	raceedge.Release(unsafe.Pointer(j)) // race build: the caller's writes happen before the run (raceedge)
	p.injector.push(j)
	p.sleep.newJobs()
	sync.Recv(j.done)
	raceedge.Acquire(unsafe.Pointer(j)) // and the run before the return
	if j.panic != nil {
		return j.panic
	}
	return nil
}

// Do runs f on the pool like Run and returns its result.
func Do[T any](p *Pool, f func(*Worker) T) (T, error) {
	var out T
	if f == nil {
		return out, ErrNilFunc
	}
	err := p.Run(func(w *Worker) { out = f(w) })
	return out, err
}

// Close waits for the Runs in progress to finish, then stops the workers. It
// returns ErrClosed if the pool was already closed, and ErrInsideJob,
// closing nothing, when called from inside a job (it would wait for the Run
// that the job belongs to).
func (p *Pool) Close() error {
	if p.workers == nil {
		panic(zeroPool)
	}
	if p.insideJob() {
		return ErrInsideJob
	}
	p.mu.Lock()
	if p.closed.LoadRelaxed() { // under mu, which orders it with the store below
		p.mu.Unlock()
		return ErrClosed
	}
	// Ordering: release. Run checks it under mu; Join and Scope check it
	// (relaxed would do for them: it only turns misuse into an error).
	p.closed.StoreRelease(true)
	p.mu.Unlock()
	p.inflight.Wait()
	for _, w := range p.workers {
		if w.terminate.set() {
			p.sleep.wakeSpecific(w.index)
		}
	}
	p.stopped.Wait()
	return nil
}
