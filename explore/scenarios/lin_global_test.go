//go:build explore

package scenarios

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
)

// The global queue's clients: every thread may push one task (u), push a
// batch of two (b), pop one (o: PopBatch into a buffer of one), pop a
// batch of up to two (B) or read Len (l). After the joins main pops
// everything left.
//
// N: with two threads, each makes up to 2 calls; with three, main makes up
// to 2 and each other thread 1, in both modes.
func TestExploreLinGlobal(t *testing.T) {
	const alphabet = "uboBl"
	var clients []linClient
	for _, w0 := range words(alphabet, 2) {
		for _, w1 := range words(alphabet, 2) {
			clients = append(clients, globalClient(w0, []string{w1}))
		}
	}
	for _, w0 := range words(alphabet, 2) {
		for i, w1 := range alphabet {
			for _, w2 := range alphabet[i:] {
				clients = append(clients, globalClient(w0, []string{string(w1), string(w2)}))
			}
		}
	}
	runLin(t, "global", clients)
}

var globalModel = model.QueueModel{}

func globalClient(main string, others []string) linClient {
	name := "main-" + main + "/others-" + strings.Join(others, ",")
	calls := len(main)
	for _, w := range others {
		calls += len(w)
	}
	body := func() {
		h := &linHistory[model.QueueState]{}
		g := queue.NewGlobal[item]()
		next := 1
		call := func(thread int, in model.QueueInput, do func() model.QueueOutput) model.QueueOutput {
			c := h.begin(thread)
			out := do()
			h.end(c, func() string { return in.Describe(out) }, func(s model.QueueState) (bool, model.QueueState) {
				return globalModel.Step(s, in, out)
			})
			return out
		}
		pop := func(thread, max int) model.QueueOutput {
			buf := make([]*item, max)
			return call(thread, model.QueueInput{Kind: model.OpGlobalPopBatch, Max: max}, func() model.QueueOutput {
				var out model.QueueOutput
				for _, it := range buf[:g.PopBatch(buf)] {
					out.Tasks = append(out.Tasks, it.id)
				}
				return out
			})
		}
		run := func(thread int, word string, ids []int) {
			for _, op := range word {
				switch op {
				case 'u':
					it := &item{id: ids[0]}
					ids = ids[1:]
					call(thread, model.QueueInput{Kind: model.OpGlobalPush, Task: it.id}, func() model.QueueOutput {
						g.Push(it)
						return model.QueueOutput{}
					})
				case 'b':
					its := []*item{{id: ids[0]}, {id: ids[1]}}
					ids = ids[2:]
					call(thread, model.QueueInput{Kind: model.OpGlobalPushBatch, Tasks: []int{its[0].id, its[1].id}}, func() model.QueueOutput {
						g.PushBatch(its)
						return model.QueueOutput{}
					})
				case 'o':
					pop(thread, 1)
				case 'B':
					pop(thread, 2)
				case 'l':
					call(thread, model.QueueInput{Kind: model.OpGlobalLen}, func() model.QueueOutput {
						return model.QueueOutput{N: g.Len()}
					})
				}
			}
		}
		// Each thread's task ids, handed out before any starts.
		idsFor := func(word string) []int {
			var ids []int
			for _, op := range word {
				k := map[rune]int{'u': 1, 'b': 2}[op]
				for range k {
					ids = append(ids, next)
					next++
				}
			}
			return ids
		}
		mainIDs := idsFor(main)
		var ths []*explore.Thread
		for i, w := range others {
			ids := idsFor(w)
			ths = append(ths, explore.Go(fmt.Sprintf("thread %d", i+1), func() { run(i+1, w, ids) }))
		}
		run(0, main, mainIDs)
		for _, th := range ths {
			th.Join()
		}
		for len(pop(0, 4).Tasks) > 0 {
		}
		h.check(name, model.NewQueueState(0), queueKey, model.QueueState.String)
	}
	return linClient{name: name, calls: calls, body: body}
}
