//go:build explore

package sync

import (
	"runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/engine"
)

// Controlled reports whether an exploration is running; under the explore
// tag every goroutine of impl/ then runs under the explorer.
func Controlled() bool { return engine.Active() }

// Point is a scheduling point before an operation on shared state that is
// not an atomic or a lock (a close, a channel send).
func Point() {
	engine.Point()
	if engine.Tracing() {
		engine.Note("(channel)")
	}
}

// PointOn is a scheduling point before a close of or a send on ch: an
// operation on the channel, which the reduced search orders against the
// other operations on it and the waits for it (Recv, Select2, Select3,
// TokenWait.Wait). An operation on an unbuffered channel is taken to be
// its close: a send on one would block where the explorer does not see.
// Every close of a channel those wait for must come after a PointOn (or
// be a cancel of explore.WithCancel): a wait that finds its channel
// closed where the explorer did not see it fails.
func PointOn(ch <-chan struct{}) {
	engine.ChannelOp(chanLoc(ch), cap(ch) == 0) // the send or close happens before a receive that sees it
	if engine.Tracing() {
		engine.Note("(channel)")
	}
}

// chanLoc is a channel's location: a channel value is a pointer to the
// runtime's channel record.
func chanLoc(ch <-chan struct{}) uintptr { return *(*uintptr)(unsafe.Pointer(&ch)) }

// Go starts f as a goroutine of the exploration, named name and index.
func Go(name string, index int, f func()) {
	if !engine.Active() {
		go f()
		return
	}
	engine.Go(name+" "+strconv.Itoa(index), f)
}

// Gosched yields: under the explorer the goroutine waits until another
// has made progress.
func Gosched() {
	if !engine.Active() {
		runtime.Gosched()
		return
	}
	engine.Gosched()
}

var start = time.Now()

// Nanotime is the explorer's virtual clock during an exploration, a
// monotonic clock otherwise.
func Nanotime() int64 {
	if engine.Active() {
		return engine.Now()
	}
	return int64(time.Since(start))
}

// Seed is a constant under the explore tag: a schedule must replay the
// same way every time.
func Seed() uint64 { return 1 }

// Block waits until ready() or the timeout (virtual time), and reports
// whether ready() held.
func Block(ready func() bool, timeout time.Duration, what string) bool {
	return engine.BlockTimeout(ready, timeout, what)
}

// Wait takes a token from token, waiting at most timeout for one (<= 0:
// for ever), and reports whether it took one. Under the explorer the wait
// is controlled: the goroutine is blocked (named by what in traces) until
// a token is in the slot or the virtual timeout passes; then the code of
// a normal build runs as it is, and finds the token there (only the
// waiter drains the slot), so the explorer checks that code too: with a
// timeout, its fast path, which takes a token already there without a
// timer.
func (w *TokenWait) Wait(token chan struct{}, timeout time.Duration, what string) bool {
	if engine.Active() {
		if !engine.BlockOnWith(chanLoc(token), true, tokenIn, chanPtr(token), timeout, what) {
			return false
		}
		engine.WeakAcquire(chanLoc(token)) // the receive below takes the token a send left
	}
	return w.wait(token, timeout)
}

// chanPtr is the pointer a channel value is; chanAt is its inverse.
func chanPtr(ch <-chan struct{}) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&ch)) }
func chanAt(p unsafe.Pointer) chan struct{}     { return *(*chan struct{})(unsafe.Pointer(&p)) }

// tokenIn is TokenWait.Wait's condition: a token is in the channel at p.
func tokenIn(p unsafe.Pointer) bool { return len(chanAt(p)) > 0 }

// closedAt is Recv's condition: the channel at p is closed.
func closedAt(p unsafe.Pointer) bool { return closed(chanAt(p)) }

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Recv waits until ch is closed.
func Recv(ch <-chan struct{}) {
	if !engine.Active() {
		<-ch
		return
	}
	engine.BlockOnWith(chanLoc(ch), false, closedAt, chanPtr(ch), 0, "channel close")
	seen(ch)
	engine.WeakAcquire(chanLoc(ch))
	if engine.Tracing() {
		engine.Note("Recv (closed)")
	}
}

// Select2 waits until a or b is closed; under the explorer, when both are,
// it returns the first, so that a schedule replays the same way.
func Select2(a, b <-chan struct{}) int {
	if !engine.Active() {
		select {
		case <-a:
			return 0
		case <-b:
			return 1
		}
	}
	return selectClosed(a, b, nil)
}

// Select3 is Select2 with three channels.
func Select3(a, b, c <-chan struct{}) int {
	if !engine.Active() {
		select {
		case <-a:
			return 0
		case <-b:
			return 1
		case <-c:
			return 2
		}
	}
	return selectClosed(a, b, c)
}

func selectClosed(a, b, c <-chan struct{}) int {
	// The wait reads whether channels are closed: the reduced search
	// orders it against the closes the explorer sees (engine.BlockOnCloseOf),
	// not against every step. A Select of nil channels alone (as
	// context.Background's Done) reads nothing: none is ever closed.
	engine.BlockOnCloseOf(a, b, c, "select on channel close")
	chs := [3]<-chan struct{}{a, b, c}
	for _, ch := range chs {
		if closed(ch) {
			seen(ch)
		}
	}
	for i, ch := range chs {
		if closed(ch) {
			engine.WeakAcquire(chanLoc(ch))
			if engine.Tracing() {
				engine.Note("select ->", i)
			}
			return i
		}
	}
	panic("unreachable")
}

// seen fails the schedule if ch, found closed by a wait, was closed where
// the explorer did not see it: the reduced search, which orders the wait
// only against the closes it sees, could have missed the order in which
// the wait came first (engine.ChannelSeen).
func seen(ch <-chan struct{}) {
	if !engine.ChannelSeen(chanLoc(ch)) {
		engine.Failf("explore/sync: a wait found a channel closed that the explorer did not see closed: close it after sync.PointOn, or cancel a context with explore.WithCancel (a context's cancel or timer closes its Done channel out of the explorer's sight)")
	}
}

// Mutex is a lock the explorer controls: Lock is a scheduling point at
// which the goroutine waits while the lock is held.
type Mutex struct {
	mu   sync.Mutex // outside an exploration
	held bool
}

func (m *Mutex) Lock() {
	if !engine.Active() {
		m.mu.Lock()
		return
	}
	engine.BlockOnWith(uintptr(unsafe.Pointer(m)), true, unheld, unsafe.Pointer(m), 0, "Mutex.Lock")
	m.held = true
	engine.WeakAcquire(uintptr(unsafe.Pointer(m)))
	if engine.Tracing() {
		engine.Note("Lock")
	}
}

// unheld is Lock's condition: the Mutex at p is not held.
func unheld(p unsafe.Pointer) bool { return !(*Mutex)(p).held }

func (m *Mutex) Unlock() {
	if !engine.Active() {
		m.mu.Unlock()
		return
	}
	engine.PointAt(uintptr(unsafe.Pointer(m)), true)
	if !m.held {
		panic("sync: unlock of unlocked mutex")
	}
	engine.WeakRelease(uintptr(unsafe.Pointer(m)))
	m.held = false
	if engine.Tracing() {
		engine.Note("Unlock")
	}
}

// Once runs a function once, on the controlled Mutex.
type Once struct {
	m    Mutex
	done bool
}

func (o *Once) Do(f func()) {
	o.m.Lock()
	defer o.m.Unlock()
	if o.done {
		return
	}
	defer func() { o.done = true }()
	f()
}

// WaitGroup counts goroutines; Wait is a controlled wait for zero.
type WaitGroup struct {
	wg sync.WaitGroup // outside an exploration
	n  int
}

func (g *WaitGroup) Add(delta int) {
	if !engine.Active() {
		g.wg.Add(delta)
		return
	}
	engine.PointAt(uintptr(unsafe.Pointer(g)), true)
	if delta < 0 {
		engine.WeakRelease(uintptr(unsafe.Pointer(g))) // Done happens before the Wait it ends
	}
	g.n += delta
	if g.n < 0 {
		panic("sync: negative WaitGroup counter")
	}
	if engine.Tracing() {
		engine.Note("WaitGroup.Add", delta, "->", g.n)
	}
}

func (g *WaitGroup) Done() { g.Add(-1) }

func (g *WaitGroup) Wait() {
	if !engine.Active() {
		g.wg.Wait()
		return
	}
	engine.BlockOn(uintptr(unsafe.Pointer(g)), false, func() bool { return g.n == 0 }, "WaitGroup.Wait")
	engine.WeakAcquire(uintptr(unsafe.Pointer(g)))
}

// Released records, in the weak-memory mode, that the calling goroutine
// released the synchronisation object at p, as a channel send or an
// unlock the explorer does not see would: what the goroutine wrote before
// is visible to a goroutine that then calls Acquired(p). Elsewhere it does
// nothing.
func Released(p unsafe.Pointer) { engine.WeakRelease(uintptr(p)) }

// Acquired records, in the weak-memory mode, that the calling goroutine
// acquired the synchronisation object at p (received what a Released(p)
// sent). Elsewhere it does nothing.
func Acquired(p unsafe.Pointer) { engine.WeakAcquire(uintptr(p)) }

// WeakMemory reports whether the running schedule is in the weak-memory
// mode, where an atomic is only as strong as its ordering and a load may
// read an older store.
func WeakMemory() bool { return engine.Weak() }
