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
