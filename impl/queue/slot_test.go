package queue_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/linearizability/queuecheck"
	specqueue "github.com/wsched/wsched/spec/queue"
	"pgregory.net/rapid"
)

// TestSlotRapid runs random sequences of Put, Take and Steal on impl/queue's
// Slot, one at a time, and compares each result, and Full after each call,
// with the sequential model (package model).
func TestSlotRapid(t *testing.T) {
	rapid.Check(t, queuecheck.SlotMachine(queuecheck.NewImplSlot))
}

type slotTask struct{ id int }

// slotAPI is what impl/queue.Slot and its spec/queue twin have in common.
type slotAPI interface {
	Put(*slotTask) *slotTask
	Take() *slotTask
	Steal() *slotTask
	Full() bool
}

var slotKinds = []struct {
	name    string
	newSlot func() slotAPI
}{
	{"impl", func() slotAPI { return new(queue.Slot[slotTask]) }},
	{"spec", func() slotAPI { return new(specqueue.Slot[slotTask]) }},
}

// TestSlotPutNilPanics: putting no task is a programming error, and says so
// at once rather than passing for an empty slot.
func TestSlotPutNilPanics(t *testing.T) {
	for _, k := range slotKinds {
		s := k.newSlot()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Put(nil) did not panic", k.name)
				}
			}()
			s.Put(nil)
		}()
		if s.Full() {
			t.Errorf("%s: Put(nil) left the slot full", k.name)
		}
	}
}

// TestSlotExactlyOnce: the owner puts tasks, taking every third one back at
// once, while three thieves steal whenever they see the slot full. Every
// task put comes out exactly once: through the owner's Take, a thief's
// Steal, the result of the Put that displaced it, or the slot itself at the
// end. Counts are per task, so a task lost and another duplicated do not
// cancel out. The same run on spec/queue shows the test is right.
//
// The owner's Take right after its Put is the race the slot's exchange is
// for: a thief may have stolen the task in between (the Take comes back
// empty) or may be stealing it at that moment (only one of them may get
// it). The test fails if no thief stole anything, since then it tested
// nothing concurrent.
func TestSlotExactlyOnce(t *testing.T) {
	const tasks, thieves = 10000, 3
	for _, k := range slotKinds {
		t.Run(k.name, func(t *testing.T) {
			s := k.newSlot()
			got := make([]atomic.Int32, tasks+1) // by task id: how many times it came out
			var taken, stolen, displaced, lost atomic.Int64
			out := func(tk *slotTask, by *atomic.Int64) {
				if tk != nil {
					got[tk.id].Add(1)
					by.Add(1)
				}
			}
			var stop atomic.Bool
			var wg sync.WaitGroup
			for range thieves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for miss := 0; !stop.Load(); {
						if !s.Full() {
							if miss++; miss%64 == 0 {
								runtime.Gosched() // let the owner run, even with GOMAXPROCS=1
							}
							continue
						}
						out(s.Steal(), &stolen)
					}
				}()
			}
			for i := 1; i <= tasks; i++ {
				out(s.Put(&slotTask{id: i}), &displaced)
				if i%3 == 0 {
					for range i % 7 {
						s.Full() // a window of 0 to 6 loads for a thief to steal in
					}
					tk := s.Take()
					if tk == nil {
						lost.Add(1) // a thief stole task i between the Put and the Take
					}
					out(tk, &taken)
				}
				if i%64 == 0 {
					runtime.Gosched()
				}
			}
			stop.Store(true)
			wg.Wait()
			var left atomic.Int64
			out(s.Take(), &left)
			for i := 1; i <= tasks; i++ {
				if n := got[i].Load(); n != 1 {
					t.Errorf("task %d came out of the slot %d times, want exactly once", i, n)
				}
			}
			t.Logf("%d tasks: %d taken, %d stolen, %d displaced, %d left; %d takes found the slot emptied by a thief",
				tasks, taken.Load(), stolen.Load(), displaced.Load(), left.Load(), lost.Load())
			if stolen.Load() == 0 {
				t.Error("no thief stole a task: the run tested nothing concurrent")
			}
		})
	}
}
