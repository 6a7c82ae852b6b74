//go:build explore

package scenarios

import (
	"fmt"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/deque"
	"github.com/wsched/wsched/model"
)

// The Chase-Lev deque's clients: the owner (main) pushes and pops at the
// bottom of a deque of initial capacity 2 that holds prefill elements, and
// one or two thieves steal at the top; after the joins the owner pops
// until empty. Growth happens whenever the deque holds more than two.
//
// N, per mode (two threads: the owner and one thief; three: two thieves):
// under sequential consistency the owner makes up to 3 calls and the thief
// up to 3 with two threads, the owner 2 and each thief 2 with three; in
// the weak-memory mode, whose executions are many more (each load's
// choice of store), 2 and 2 with two threads, 2 and 1 with three.
func TestExploreLinDeque(t *testing.T) {
	n := linN{owner2: 3, thief2: 3, owner3: 2, thief3: 2}
	if explore.WeakMode() {
		n = linN{owner2: 2, thief2: 2, owner3: 2, thief3: 1}
	}
	runLin(t, "deque", n.clients([]int{0, 1, 2}, "uo", dequeClient))
}

// linN is the size of an object's clients: the calls of the owner and of
// each thief, with one thief (two threads) and with two (three threads).
type linN struct{ owner2, thief2, owner3, thief3 int }

// linShape is one client's calls: the owner's word and each thief's count.
type linShape struct {
	owner   string
	thieves []int
}

// clients is every client of n over the owner's alphabet, for each
// prefill, made by mk: the objects' suites differ only in these.
func (n linN) clients(prefills []int, alphabet string, mk func(prefill int, owner string, thieves []int) linClient) []linClient {
	var out []linClient
	for _, prefill := range prefills {
		for _, sh := range n.shapes(alphabet) {
			out = append(out, mk(prefill, sh.owner, sh.thieves))
		}
	}
	return out
}

// shapes returns every client of n over the owner's alphabet: every word
// of 1..owner2 calls with one thief of 1..thief2 calls, and every word of
// 1..owner3 calls with two thieves of 1..thief3 calls each (a <= b: the
// thieves are alike).
func (n linN) shapes(alphabet string) []linShape {
	var out []linShape
	for _, w := range words(alphabet, n.owner2) {
		for a := 1; a <= n.thief2; a++ {
			out = append(out, linShape{w, []int{a}})
		}
	}
	for _, w := range words(alphabet, n.owner3) {
		for a := 1; a <= n.thief3; a++ {
			for b := a; b <= n.thief3; b++ {
				out = append(out, linShape{w, []int{a, b}})
			}
		}
	}
	return out
}

// words returns every word of 1..n letters over alphabet, shortest first.
func words(alphabet string, n int) []string {
	out := []string{}
	last := []string{""}
	for range n {
		var next []string
		for _, w := range last {
			for _, c := range alphabet {
				next = append(next, w+string(c))
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// dequeClient is one client: prefill elements pushed before the thieves
// start, the owner's calls (u push, o pop) and each thief's steals.
func dequeClient(prefill int, owner string, thieves []int) linClient {
	name := clientName(prefill, owner, thieves)
	body := func() {
		h := &linHistory[model.Deque]{}
		d, err := deque.New[item](2)
		if err != nil {
			explore.Failf("New: %v", err)
		}
		next := 1
		push := func() {
			id := next
			next++
			c := h.begin(0)
			d.Push(&item{id: id})
			h.end(c, func() string { return fmt.Sprintf("Push(%d)", id) }, func(s model.Deque) (bool, model.Deque) {
				return s.Step(model.DequeOp{Kind: model.DequePush, Value: id})
			})
		}
		pop := func() bool {
			c := h.begin(0)
			v, ok := d.Pop()
			op := model.DequeOp{Kind: model.DequePop, Outcome: model.DequeEmpty}
			if ok {
				op.Outcome, op.Value = model.DequeOK, id(v) // 0 (no element) for a nil: the model refuses it
			}
			h.end(c, op.String, func(s model.Deque) (bool, model.Deque) { return s.Step(op) })
			return ok
		}
		steal := func(thread int) {
			c := h.begin(thread)
			v, res := d.Steal()
			op := model.DequeOp{Kind: model.DequeSteal}
			switch res {
			case deque.Success:
				op.Outcome, op.Value = model.DequeOK, id(v) // 0 (no element) for a nil: the model refuses it
			case deque.Empty:
				op.Outcome = model.DequeEmpty
			default:
				op.Outcome = model.DequeRetry
			}
			h.end(c, op.String, func(s model.Deque) (bool, model.Deque) { return s.Step(op) })
		}
		for range prefill {
			push()
		}
		join := startThieves(thieves, steal)
		for _, op := range owner {
			if op == 'u' {
				push()
			} else {
				pop()
			}
		}
		join()
		for pop() {
		}
		h.check(name, model.NewDeque(), model.Deque.String, model.Deque.String)
	}
	return linClient{name: name, calls: len(owner) + sum(thieves), body: body}
}
