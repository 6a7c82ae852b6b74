package goid

import "testing"

func TestCurrentTellsGoroutinesApart(t *testing.T) {
	me := Current()
	if me <= 0 {
		t.Fatalf("Current() = %d, want a positive goroutine number", me)
	}
	if again := Current(); again != me {
		t.Fatalf("Current() changed on the same goroutine: %d then %d", me, again)
	}
	other := make(chan int64)
	go func() { other <- Current() }()
	if o := <-other; o == me || o <= 0 {
		t.Fatalf("another goroutine's Current() = %d, this one's %d", o, me)
	}
}

// A handle is the goroutine's for its whole life, its stack grown and
// moved included, and goroutines alive together have different handles.
func TestHandleTellsLiveGoroutinesApart(t *testing.T) {
	me := Handle()
	if me == 0 {
		t.Fatal("Handle() = 0")
	}
	if deep := handleAtDepth(20000); deep != me {
		t.Fatalf("Handle() changed as the stack grew: %#x then %#x", me, deep)
	}
	const n = 64
	handles := make(chan uintptr, n)
	release := make(chan struct{})
	for range n {
		go func() {
			handles <- Handle()
			<-release // alive until every handle is in
		}()
	}
	seen := map[uintptr]bool{me: true}
	for range n {
		h := <-handles
		if seen[h] {
			t.Fatalf("two live goroutines share the handle %#x", h)
		}
		seen[h] = true
	}
	close(release)
}

// handleAtDepth calls itself depth times, with a frame big enough that the
// goroutine's stack is copied to a larger one on the way, and returns the
// handle read at the bottom.
func handleAtDepth(depth int) uintptr {
	var pad [64]byte
	if depth == 0 {
		return Handle()
	}
	h := handleAtDepth(depth - 1)
	pad[depth%len(pad)] = byte(h)
	return h + uintptr(pad[depth%len(pad)]) - uintptr(byte(h))
}
