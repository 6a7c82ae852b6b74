package bench

import (
	"testing"

	implqueue "github.com/wsched/wsched/impl/queue"
	specqueue "github.com/wsched/wsched/spec/queue"
)

// queueBatch is how many items one iteration of BenchmarkQueuePushPop pushes and then pops:
// half the ring, so no push overflows.
const queueBatch = implqueue.Capacity / 2

type queueItem struct{ _ int }

// BenchmarkQueuePushPop measures the owner's side of a run queue with no thief: queueBatch
// pushes followed by queueBatch pops on one goroutine. ns/task is one push plus one pop.
// The buffered channel (of the ring's capacity) is the Go-native comparison.
func BenchmarkQueuePushPop(b *testing.B) {
	items := make([]queueItem, queueBatch)
	b.Run("peer=impl", func(b *testing.B) {
		r, g := implqueue.NewRing[queueItem](), implqueue.NewGlobal[queueItem]()
		measure(b, queueBatch, func() {
			for i := range items {
				if r.Push(&items[i], g) != 0 {
					panic("ring overflowed below its capacity")
				}
			}
			for range items {
				if r.Pop() == nil {
					panic("ring lost an item")
				}
			}
		})
	})
	b.Run("peer=spec", func(b *testing.B) {
		r, g := specqueue.NewRing[queueItem](), specqueue.NewGlobal[queueItem]()
		measure(b, queueBatch, func() {
			for i := range items {
				if r.Push(&items[i], g) != 0 {
					panic("ring overflowed below its capacity")
				}
			}
			for range items {
				if r.Pop() == nil {
					panic("ring lost an item")
				}
			}
		})
	})
	b.Run("peer=chan", func(b *testing.B) {
		c := make(chan *queueItem, implqueue.Capacity)
		measure(b, queueBatch, func() {
			for i := range items {
				c <- &items[i]
			}
			for range items {
				if <-c == nil {
					panic("channel lost an item")
				}
			}
		})
	})
}
