package park

import (
	"sync"
	"testing"
	"time"
)

type maker struct {
	name string
	new  func(t testing.TB) Parker
}

func parkers() []maker {
	ms := []maker{{"chan", func(testing.TB) Parker { return NewChan() }}}
	if FutexSupported {
		ms = append(ms, maker{"futex", func(t testing.TB) Parker {
			p, err := NewFutex()
			if err != nil {
				t.Fatal(err)
			}
			return p
		}})
	}
	return ms
}

// An Unpark that happens before Park is not lost: Park returns at once with
// woken = true, with and without a timeout.
func TestUnparkBeforeParkNotLost(t *testing.T) {
	for _, m := range parkers() {
		t.Run(m.name, func(t *testing.T) {
			p := m.new(t)
			p.Unpark()
			if !p.Park(0) {
				t.Fatal("Park(0) after Unpark reported a timeout")
			}
			p.Unpark()
			p.Unpark() // tokens do not accumulate
			if !p.Park(time.Hour) {
				t.Fatal("Park(1h) after Unpark reported a timeout")
			}
			// The second Unpark was absorbed: the next timed park
			// must time out.
			if p.Park(5 * time.Millisecond) {
				t.Fatal("tokens accumulated: a second Park consumed a token")
			}
		})
	}
}

func TestParkTimesOut(t *testing.T) {
	for _, m := range parkers() {
		t.Run(m.name, func(t *testing.T) {
			p := m.new(t)
			for i := 0; i < 3; i++ { // reuses the timer
				start := time.Now()
				if p.Park(2 * time.Millisecond) {
					t.Fatal("Park with no Unpark reported a wake")
				}
				if el := time.Since(start); el < 2*time.Millisecond {
					t.Fatalf("Park returned after %v, before its 2ms timeout", el)
				}
			}
			// A timeout leaves no token behind.
			p.Unpark()
			if !p.Park(time.Hour) {
				t.Fatal("Unpark after timeouts was lost")
			}
		})
	}
}

// Park(0) with no token blocks: it returns only after an Unpark.
func TestParkWithoutTokenBlocks(t *testing.T) {
	for _, m := range parkers() {
		t.Run(m.name, func(t *testing.T) {
			p := m.new(t)
			done := make(chan bool, 1)
			go func() { done <- p.Park(0) }()
			// A Park that wrongly returns does so at once. (This can
			// miss the bug on a starved machine, never report it
			// falsely.)
			select {
			case <-done:
				t.Fatal("Park(0) returned with no Unpark")
			case <-time.After(20 * time.Millisecond):
			}
			p.Unpark()
			if !<-done {
				t.Fatal("Park(0) woken by Unpark reported a timeout")
			}
		})
	}
}

// Unpark from another goroutine wakes a Park that is already asleep, and
// every round trip of a ping-pong completes (a lost token hangs the test).
func TestPingPong(t *testing.T) {
	for _, m := range parkers() {
		t.Run(m.name, func(t *testing.T) {
			a, b := m.new(t), m.new(t)
			const rounds = 2000
			var wg sync.WaitGroup
			wg.Add(1)
			var shared int // written by one side, read by the other: the race detector checks the edge
			go func() {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					for !a.Park(0) {
					}
					if shared != 2*i+1 {
						t.Errorf("round %d: saw %d", i, shared)
						return
					}
					shared++
					b.Unpark()
				}
			}()
			for i := 0; i < rounds; i++ {
				shared++
				a.Unpark()
				for !b.Park(time.Second) {
					t.Fatalf("round %d: lost wake", i)
				}
			}
			wg.Wait()
		})
	}
}

// Many concurrent Unparks against one timed parker: every Park either times
// out or consumes a token, and a final Unpark always wakes it.
func TestConcurrentUnpark(t *testing.T) {
	for _, m := range parkers() {
		t.Run(m.name, func(t *testing.T) {
			p := m.new(t)
			var wg sync.WaitGroup
			stop := make(chan struct{})
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
							p.Unpark()
						}
					}
				}()
			}
			for i := 0; i < 500; i++ {
				p.Park(50 * time.Microsecond)
			}
			close(stop)
			wg.Wait()
			p.Unpark()
			if !p.Park(time.Hour) {
				t.Fatal("final Unpark lost")
			}
		})
	}
}
