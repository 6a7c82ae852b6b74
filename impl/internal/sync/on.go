//go:build explore

package sync

import (
	"runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/wsched/wsched/internal/explorer"
)

// Controlled reports whether an exploration is running; under the explore
// tag every goroutine of impl/ then runs under the explorer.
func Controlled() bool { return explorer.Active() }

// Point is a scheduling point before an operation on shared state that is
// not an atomic or a lock (a close, a channel send).
func Point() {
	explorer.Point()
	if explorer.Tracing() {
		explorer.Note("(channel)")
	}
}

// PointOn is a scheduling point before a close of or a send on ch: an
// operation on the channel, which the reduced search orders against the
// other operations on it and the waits for it (Recv, TokenWait.Wait).
func PointOn(ch <-chan struct{}) {
	explorer.PointAt(chanLoc(ch), true)
	explorer.WeakRelease(chanLoc(ch)) // the send or close happens before a receive that sees it
	if explorer.Tracing() {
		explorer.Note("(channel)")
	}
}

// chanLoc is a channel's location: a channel value is a pointer to the
// runtime's channel record.
func chanLoc(ch <-chan struct{}) uintptr { return *(*uintptr)(unsafe.Pointer(&ch)) }

// Go starts f as a goroutine of the exploration, named name and index.
func Go(name string, index int, f func()) {
	if !explorer.Active() {
		go f()
		return
	}
	explorer.Go(name+" "+strconv.Itoa(index), f)
}

// Gosched yields: under the explorer the goroutine waits until another
// has made progress.
func Gosched() {
	if !explorer.Active() {
		runtime.Gosched()
		return
	}
	explorer.Gosched()
}

var start = time.Now()

// Nanotime is the explorer's virtual clock during an exploration, a
// monotonic clock otherwise.
func Nanotime() int64 {
	if explorer.Active() {
		return explorer.Now()
	}
	return int64(time.Since(start))
}

// Seed is a constant under the explore tag: a schedule must replay the
// same way every time.
func Seed() uint64 { return 1 }

// Block waits until ready() or the timeout (virtual time), and reports
// whether ready() held.
func Block(ready func() bool, timeout time.Duration, what string) bool {
	return explorer.BlockTimeout(ready, timeout, what)
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
	if explorer.Active() {
		if !explorer.BlockOnTimeout(chanLoc(token), true, func() bool { return len(token) > 0 }, timeout, what) {
			return false
		}
		explorer.WeakAcquire(chanLoc(token)) // the receive below takes the token a send left
	}
	return w.wait(token, timeout)
}

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
	if !explorer.Active() {
		<-ch
		return
	}
	explorer.BlockOn(chanLoc(ch), false, func() bool { return closed(ch) }, "channel close")
	explorer.WeakAcquire(chanLoc(ch))
	if explorer.Tracing() {
		explorer.Note("Recv (closed)")
	}
}

// Select2 waits until a or b is closed; under the explorer, when both are,
// it returns the first, so that a schedule replays the same way.
func Select2(a, b <-chan struct{}) int {
	if !explorer.Active() {
		select {
		case <-a:
			return 0
		case <-b:
			return 1
		}
	}
	return selectClosed(a, b)
}

// Select3 is Select2 with three channels.
func Select3(a, b, c <-chan struct{}) int {
	if !explorer.Active() {
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

func selectClosed(chs ...<-chan struct{}) int {
	explorer.Block(func() bool {
		for _, ch := range chs {
			if closed(ch) {
				return true
			}
		}
		return false
	}, "select on channel close")
	for i, ch := range chs {
		if closed(ch) {
			explorer.WeakAcquire(chanLoc(ch))
			if explorer.Tracing() {
				explorer.Note("select ->", i)
			}
			return i
		}
	}
	panic("unreachable")
}

// Mutex is a lock the explorer controls: Lock is a scheduling point at
// which the goroutine waits while the lock is held.
type Mutex struct {
	mu   sync.Mutex // outside an exploration
	held bool
}

func (m *Mutex) Lock() {
	if !explorer.Active() {
		m.mu.Lock()
		return
	}
	explorer.BlockOn(uintptr(unsafe.Pointer(m)), true, func() bool { return !m.held }, "Mutex.Lock")
	m.held = true
	explorer.WeakAcquire(uintptr(unsafe.Pointer(m)))
	if explorer.Tracing() {
		explorer.Note("Lock")
	}
}

func (m *Mutex) Unlock() {
	if !explorer.Active() {
		m.mu.Unlock()
		return
	}
	explorer.PointAt(uintptr(unsafe.Pointer(m)), true)
	if !m.held {
		panic("sync: unlock of unlocked mutex")
	}
	explorer.WeakRelease(uintptr(unsafe.Pointer(m)))
	m.held = false
	if explorer.Tracing() {
		explorer.Note("Unlock")
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
	if !explorer.Active() {
		g.wg.Add(delta)
		return
	}
	explorer.PointAt(uintptr(unsafe.Pointer(g)), true)
	if delta < 0 {
		explorer.WeakRelease(uintptr(unsafe.Pointer(g))) // Done happens before the Wait it ends
	}
	g.n += delta
	if g.n < 0 {
		panic("sync: negative WaitGroup counter")
	}
	if explorer.Tracing() {
		explorer.Note("WaitGroup.Add", delta, "->", g.n)
	}
}

func (g *WaitGroup) Done() { g.Add(-1) }

func (g *WaitGroup) Wait() {
	if !explorer.Active() {
		g.wg.Wait()
		return
	}
	explorer.BlockOn(uintptr(unsafe.Pointer(g)), false, func() bool { return g.n == 0 }, "WaitGroup.Wait")
	explorer.WeakAcquire(uintptr(unsafe.Pointer(g)))
}
