//go:build explore

package scenarios

import (
	"fmt"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
)

// The ring's clients: the owner (main) of ring 0 pushes, pops and reads
// Len on a ring of queue.Capacity (4 under the explore tag) that holds
// prefill tasks (0, 2, or 4: full, so that a push overflows half of it into
// the global queue); one or two thieves each steal from ring 0 into a ring
// of their own. A push's calls on the global queue are calls of their own
// in the history (the model's overflow transit). After the joins main
// takes everything left, from every ring and from the global queue.
//
// N, per mode: under sequential consistency the owner makes up to 3 calls
// and the thief up to 2 with two threads, the owner 2 and each thief 1
// with three; in the weak-memory mode the owner 2 and the thief 2 with two
// threads, the owner 1 and each thief 1 with three.
func TestExploreLinRing(t *testing.T) {
	n := linN{owner2: 3, thief2: 2, owner3: 1, thief3: 1}
	if explore.WeakMode() {
		n = linN{owner2: 2, thief2: 1, owner3: 1, thief3: 1}
	}
	runLin(t, "ring", n.clients([]int{0, 2, queue.Capacity}, "uol", ringClient))
}

// ringModel is the model the ring's histories are checked against: the
// concurrent one (a steal may take fewer than half, or fail, when it
// overlapped another call on its rings), at the explore build's capacity.
var ringModel = model.QueueModel{Concurrent: true, Capacity: queue.Capacity}

// linInjector is the ring's overflow: the real global queue, each call
// recorded as a call of the history, made inside the owner's push.
type linInjector struct {
	h *linHistory[model.QueueState]
	g *queue.Global[item]
}

func (j linInjector) Push(t *item) {
	in := model.QueueInput{Kind: model.OpGlobalPush, Task: t.id, Overflow: true}
	c := j.h.begin(0)
	j.g.Push(t)
	j.h.end(c, func() string { return in.Describe(model.QueueOutput{}) }, func(s model.QueueState) (bool, model.QueueState) {
		return ringModel.Step(s, in, model.QueueOutput{})
	})
}

func (j linInjector) PushBatch(ts []*item) {
	in := model.QueueInput{Kind: model.OpGlobalPushBatch, Overflow: true}
	for _, t := range ts {
		in.Tasks = append(in.Tasks, t.id)
	}
	c := j.h.begin(0)
	j.g.PushBatch(ts)
	j.h.end(c, func() string { return in.Describe(model.QueueOutput{}) }, func(s model.QueueState) (bool, model.QueueState) {
		return ringModel.Step(s, in, model.QueueOutput{})
	})
}

// ringCall records one call of the ring model: do makes it and returns
// its result.
func ringCall(h *linHistory[model.QueueState], thread int, in model.QueueInput, touches []int, do func() model.QueueOutput) model.QueueOutput {
	c := h.begin(thread)
	c.touches = touches
	out := do()
	h.end(c, func() string { return in.Describe(out) }, func(s model.QueueState) (bool, model.QueueState) {
		in := in
		in.Contended = c.contended
		return ringModel.Step(s, in, out)
	})
	return out
}

func id(it *item) int {
	if it == nil {
		return 0
	}
	return it.id
}

// ringClient is one client: prefill tasks pushed before the thieves
// start, the owner's calls (u push, o pop, l Len) and each thief's steals.
func ringClient(prefill int, owner string, thieves []int) linClient {
	name := clientName(prefill, owner, thieves)
	body := func() {
		h := &linHistory[model.QueueState]{}
		g := queue.NewGlobal[item]()
		rings := []*queue.Ring[item]{queue.NewRing[item]()}
		for range thieves {
			rings = append(rings, queue.NewRing[item]())
		}
		inj := linInjector{h: h, g: g}
		next := 1
		push := func() {
			it := &item{id: next}
			next++
			ringCall(h, 0, model.QueueInput{Kind: model.OpPush, Ring: 0, Task: it.id}, []int{0}, func() model.QueueOutput {
				return model.QueueOutput{N: rings[0].Push(it, inj)}
			})
		}
		pop := func(ring int) bool {
			out := ringCall(h, 0, model.QueueInput{Kind: model.OpPop, Ring: ring}, []int{ring}, func() model.QueueOutput {
				return model.QueueOutput{Task: id(rings[ring].Pop())}
			})
			return out.Task != 0
		}
		for range prefill {
			push()
		}
		join := startThieves(thieves, func(dst int) {
			ringCall(h, dst, model.QueueInput{Kind: model.OpSteal, Ring: 0, Dst: dst}, []int{0, dst}, func() model.QueueOutput {
				first, k := rings[0].StealInto(rings[dst])
				return model.QueueOutput{Task: id(first), N: k}
			})
		})
		for _, op := range owner {
			switch op {
			case 'u':
				push()
			case 'o':
				pop(0)
			case 'l':
				ringCall(h, 0, model.QueueInput{Kind: model.OpLen, Ring: 0}, []int{0}, func() model.QueueOutput {
					return model.QueueOutput{N: rings[0].Len()}
				})
			}
		}
		join()
		for i := range rings {
			for pop(i) {
			}
		}
		buf := make([]*item, queue.Capacity)
		for {
			out := ringCall(h, 0, model.QueueInput{Kind: model.OpGlobalPopBatch, Max: len(buf)}, nil, func() model.QueueOutput {
				n := g.PopBatch(buf)
				var out model.QueueOutput
				for _, it := range buf[:n] {
					out.Tasks = append(out.Tasks, it.id)
				}
				return out
			})
			if len(out.Tasks) == 0 {
				break
			}
		}
		h.check(name, model.NewQueueState(len(rings)), queueKey, model.QueueState.String)
	}
	return linClient{name: name, calls: len(owner) + sum(thieves), body: body}
}

// queueKey names a queue state in full (Hash abbreviates long queues).
func queueKey(s model.QueueState) string {
	return fmt.Sprint(s.Rings, s.Global, s.Transit)
}
