//go:build explore

package scenarios

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
)

// The LIFO slot's clients: the owner (main) puts (p), takes (t) and reads
// Full (f) on a slot that starts empty or full; one or two thieves steal.
// After the joins the owner takes what is left.
//
// N: under sequential consistency the owner makes up to 4 calls and the
// thief up to 4 with two threads, the owner 3 and each thief 3 with three;
// in the weak-memory mode 3 and 3 with two threads, 2 and 2 with three.
func TestExploreLinSlot(t *testing.T) {
	n := linN{owner2: 4, thief2: 4, owner3: 3, thief3: 3}
	if explore.WeakMode() {
		n = linN{owner2: 3, thief2: 3, owner3: 2, thief3: 2}
	}
	runLin(t, "slot", n.clients([]int{0, 1}, "ptf", slotClient))
}

func slotClient(prefill int, owner string, thieves []int) linClient {
	name := clientName(prefill, owner, thieves)
	body := func() {
		h := &linHistory[model.SlotState]{}
		var s queue.Slot[item]
		call := func(thread int, in model.SlotInput, do func() model.SlotOutput) model.SlotOutput {
			c := h.begin(thread)
			out := do()
			h.end(c, func() string { return in.Describe(out) }, func(st model.SlotState) (bool, model.SlotState) {
				return model.SlotModel{}.Step(st, in, out)
			})
			return out
		}
		next := 1
		put := func() {
			it := &item{id: next}
			next++
			call(0, model.SlotInput{Kind: model.SlotPut, Task: it.id}, func() model.SlotOutput {
				return model.SlotOutput{Task: id(s.Put(it))}
			})
		}
		take := func() model.SlotOutput {
			return call(0, model.SlotInput{Kind: model.SlotTake}, func() model.SlotOutput {
				return model.SlotOutput{Task: id(s.Take())}
			})
		}
		for range prefill {
			put()
		}
		join := startThieves(thieves, func(thread int) {
			call(thread, model.SlotInput{Kind: model.SlotSteal}, func() model.SlotOutput {
				return model.SlotOutput{Task: id(s.Steal())}
			})
		})
		for _, op := range owner {
			switch op {
			case 'p':
				put()
			case 't':
				take()
			case 'f':
				call(0, model.SlotInput{Kind: model.SlotFull}, func() model.SlotOutput {
					return model.SlotOutput{Full: s.Full()}
				})
			}
		}
		join()
		take()
		h.check(name, model.SlotState{}, model.SlotState.String, model.SlotState.String)
	}
	return linClient{name: name, calls: len(owner) + sum(thieves), body: body}
}
