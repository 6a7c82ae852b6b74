//go:build explore

package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/internal/engine"
	"github.com/wsched/wsched/explore/internal/vclock"
)

// The linearizability clients (docs/explore.md, "Every execution
// linearizable"): for each concurrent object, every client of two or three
// threads up to N calls each runs under the explorer, every execution of
// it (the reduced search without a preemption bound; in the weak-memory
// mode every choice of store within the stale-read bound), and each
// execution's history is checked linearizable against the object's
// sequential model in model/, by a brute-force search over the orders the
// history allows. The scenarios' assertions check what they name (each
// item taken once); these check the sequential specification: a take out
// of FIFO order, a length no sequential history gives, a steal of a state
// no linearization has.
//
// Real time. A call's interval is taken at its invocation and its
// response, in the goroutine that makes it:
//
//   - Under sequential consistency (the explore layer), from a counter that
//     the call bumps at both ends. The explorer runs one goroutine at a
//     time and switches only at scheduling points (an atomic, a lock), and
//     the bumps are plain Go with none between them and the call, so the
//     counter orders the bumps as the execution does: a call whose response
//     bump comes before another's invocation bump finished before the
//     other began. A switch between the invocation bump and the call's
//     first atomic only widens the interval (the call is invoked and has
//     not yet acted), which makes the check accept more, never less.
//   - In the weak-memory mode, by happens-before: at each end the call
//     reads its goroutine's vector clock in the memory model
//     (engine.WeakClock), and a call precedes another when its last event
//     happens before the other's invocation. The interleaving's order is no
//     real-time order there: a load may read an older store, so a call
//     that ran later in the interleaving may not see one that ran earlier
//     and that nothing synchronised with it, which C11 allows. Ordering by
//     happens-before is what linearizability means under C11 (as GenMC's
//     Relinche checks it): calls in program order, calls before a go
//     statement or after a Join, and calls that the object's own releases
//     and acquires order.

// linCall is one call of a history. S is the model's state.
type linCall[S any] struct {
	thread     int // the client's thread: 0 is main
	index      int // the call's position in the history
	start, end int // the counter at invocation and response
	// The weak mode's happens-before snapshots (nil otherwise).
	wthread      int
	wstart, wend vclock.Clock
	desc         func() string     // the call and its result, for a report
	step         func(S) (bool, S) // the model's step for this call and result
	touches      []int             // the objects it touches (the ring model's Contended)
	ended        bool              // the response was recorded
	contended    bool              // set by check: overlaps a call that touches what it touches
}

// linHistory records the calls of one execution.
type linHistory[S any] struct {
	calls []*linCall[S]
	clock int
}

// begin records a call's invocation by thread. The call must follow at
// once, with no scheduling point in between (see above).
func (h *linHistory[S]) begin(thread int) *linCall[S] {
	h.bump()
	c := &linCall[S]{thread: thread, index: len(h.calls), start: h.clock}
	if vc, wt, ok := engine.WeakClock(); ok {
		c.wthread, c.wstart = wt, vc
	}
	h.calls = append(h.calls, c)
	return c
}

// end records c's response, as desc describes it (called only for a
// report: a history is checked in every execution, and reported in the
// few that fail), with the model step that accepts it.
func (h *linHistory[S]) end(c *linCall[S], desc func() string, step func(S) (bool, S)) {
	h.bump()
	c.end, c.desc, c.step, c.ended = h.clock, desc, step, true
	if vc, _, ok := engine.WeakClock(); ok {
		c.wend = vc
	}
}

// bump advances the counter of call boundaries. Under sequential
// consistency it is also a write the reduced search sees (engine.Touch, no
// scheduling point: it belongs to the step the goroutine is in), so that
// two executions that order two call boundaries differently are never
// taken for one: the search runs one execution of each class of
// executions that differ only in the order of independent steps, and a
// bump that no step conflicted with could be moved, with the real-time
// order of the calls, inside a class. Happens-before, which orders the
// calls in the weak-memory mode, is the same in every execution of a
// class, so there the counter is left out of the search.
func (h *linHistory[S]) bump() {
	h.clock++
	if !engine.Weak() {
		engine.Touch(uintptr(unsafe.Pointer(&h.clock)), true)
	}
}

// precedes reports whether a's response comes before b's invocation.
func (a *linCall[S]) precedes(b *linCall[S]) bool {
	if a.thread == b.thread || a.wend == nil || b.wstart == nil {
		// One goroutine's counter is its program order; a call made
		// inside another (the ring's overflow into the global queue)
		// overlaps it.
		return a.end < b.start
	}
	// a's last event is a's thread's event number wend.At(wthread); it
	// happens before b's invocation if b's clock has seen it. A call
	// with no event of its own orders nothing (its count is its
	// predecessor's).
	k := a.wend.At(a.wthread)
	return k > a.wstart.At(a.wthread) && b.wstart.At(a.wthread) >= k
}

// linChecked counts the histories checked in this process, for the
// METRIC lines (the explorer runs one execution at a time).
var linChecked int64

// check fails the execution unless the history is linearizable from init:
// some order of its calls that keeps every precedence (precedes) is a
// sequential history the model accepts. key names a state, for the
// search's memo; show prints one.
func (h *linHistory[S]) check(client string, init S, key func(S) string, show func(S) string) {
	linChecked++
	calls := h.calls
	if len(calls) > 64 {
		explore.Failf("lin %s: %d calls, more than the checker's 64", client, len(calls))
	}
	for _, c := range calls {
		if !c.ended {
			explore.Failf("lin %s: call %d of thread %d has no response", client, c.index, c.thread)
		}
	}
	pred := make([]uint64, len(calls))
	for i, a := range calls {
		for j, b := range calls {
			if i == j {
				continue
			}
			if a.precedes(b) {
				pred[j] |= 1 << i
			} else if !b.precedes(a) && overlapTouch(a.touches, b.touches) {
				a.contended = true
			}
		}
	}
	full := uint64(1)<<len(calls) - 1
	type memo struct {
		done uint64
		key  string
	}
	failed := map[memo]bool{}
	var best, order []int
	var bestState S
	var try func(done uint64, s S) bool
	try = func(done uint64, s S) bool {
		if done == full {
			return true
		}
		m := memo{done, key(s)}
		if failed[m] {
			return false
		}
		for i, c := range calls {
			if done&(1<<i) != 0 || pred[i]&^done != 0 {
				continue
			}
			ok, next := c.step(s)
			if !ok {
				continue
			}
			order = append(order, i)
			if len(order) > len(best) {
				best, bestState = slices.Clone(order), next
			}
			if try(done|1<<i, next) {
				return true
			}
			order = order[:len(order)-1]
		}
		failed[m] = true
		return false
	}
	bestState = init
	if try(0, init) {
		return
	}
	explore.Failf("%s", h.report(client, best, bestState, pred, show))
}

func overlapTouch(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// report shows the history beside the nearest sequential one: the longest
// order of calls the model accepted, the state it reached, and the calls
// that could go next, none of which the model accepts there.
func (h *linHistory[S]) report(client string, best []int, state S, pred []uint64, show func(S) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "not linearizable: client %s\nthe history (thread: [invocation, response] call -> result; the interval in the counter of call boundaries", client)
	if h.calls[0].wend != nil {
		b.WriteString("; calls are ordered by happens-before, not by the counter")
	}
	b.WriteString("):\n")
	for _, c := range h.calls {
		fmt.Fprintf(&b, "  T%d: [%2d,%2d] %s\n", c.thread, c.start, c.end, c.desc())
	}
	fmt.Fprintf(&b, "the nearest sequential history (the longest order the model accepts, %d of %d calls):\n", len(best), len(h.calls))
	var done uint64
	for _, i := range best {
		c := h.calls[i]
		fmt.Fprintf(&b, "  T%d: %s\n", c.thread, c.desc())
		done |= 1 << i
	}
	fmt.Fprintf(&b, "state there: %s; no call that may go next is accepted:\n", show(state))
	for i, c := range h.calls {
		if done&(1<<i) == 0 && pred[i]&^done == 0 {
			fmt.Fprintf(&b, "  T%d: %s\n", c.thread, c.desc())
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// clientName names a client of an owner and thieves: its prefill, the
// owner's word of calls and each thief's count of calls.
func clientName(prefill int, owner string, thieves []int) string {
	return fmt.Sprintf("prefill%d/owner-%s/steals%s", prefill, owner, countsName(thieves))
}

// countsName is the other threads' counts of calls in a client's name.
func countsName(counts []int) string {
	return strings.ReplaceAll(strings.Trim(fmt.Sprint(counts), "[]"), " ", ",")
}

// startThieves starts thief i (thread i+1) making counts[i] calls of
// call, and returns what joins them all.
func startThieves(counts []int, call func(thread int)) (join func()) {
	var ths []*explore.Thread
	for i, n := range counts {
		ths = append(ths, explore.Go(fmt.Sprintf("thief %d", i+1), func() {
			for range n {
				call(i + 1)
			}
		}))
	}
	return func() {
		for _, th := range ths {
			th.Join()
		}
	}
}

// linClient is one client: a name that says its calls, how many calls its
// threads make (the size it is ordered by), and the scenario body.
type linClient struct {
	name  string
	calls int
	body  func()
}

// quietTB is the test as Check sees it for one client: a failure is
// kept, not reported (the client is run again to report its smallest
// schedule, whose Check reports it), and Check's per-scenario METRIC
// lines and run records are dropped for the object's totals (verify
// would list thousands of clients one line each; a failure's record is
// the smallest run's).
type quietTB struct {
	testing.TB
	failed string
}

func (q *quietTB) Fatalf(format string, args ...any) { q.failed = fmt.Sprintf(format, args...) }
func (q *quietTB) Fatal(args ...any)                 { q.failed = fmt.Sprint(args...) }
func (q *quietTB) Logf(format string, args ...any) {
	record := len(args) > 0 && args[0] == explore.RecordPrefix
	if !strings.HasPrefix(format, "METRIC ") && !record {
		q.TB.Logf(format, args...)
	}
}

// linBudget bounds one client's search; a client that reaches it fails
// the test as not exhaustive.
const linBudget = 200_000

// runLin runs every client of object, smallest first, each under every
// execution, and stops at the first that fails, reporting it with its
// fewest preemptions (and, in the weak mode, stale reads).
func runLin(t *testing.T, object string, clients []linClient) {
	slices.SortStableFunc(clients, func(a, b linClient) int { return cmp.Compare(a.calls, b.calls) })
	if env, err := explore.FromEnv(explore.Options{}); err != nil {
		t.Fatal(err)
	} else if env.Replay != "" {
		// A replay runs the one client it names, with the trace.
		for _, c := range clients {
			name := "lin/" + object + "/" + c.name
			if env.ReplayScenario == name || env.ReplayScenario == name+smallestSuffix {
				explore.Check(t, env.ReplayScenario, explore.Options{}, c.body)
				return
			}
		}
		t.Logf("lin %s: not run, replaying %s only", object, env.ReplayScenario)
		return
	}
	began := time.Now()
	linChecked = 0
	var ran, executions int64
	for _, c := range clients {
		name := "lin/" + object + "/" + c.name
		ok := t.Run(c.name, func(t *testing.T) {
			q := &quietTB{TB: t}
			res := explore.Check(q, name, explore.Options{Reduce: true, Unbounded: true, MaxSchedules: linBudget, MaxStale: linMaxStale}, c.body)
			ran++
			executions += int64(res.Schedules)
			if q.failed == "" && res.Failure == nil {
				if !res.Exhaustive && res.Mode != "replay" {
					t.Errorf("%s: not exhaustive: %d executions, the budget ran out", name, res.Schedules)
				}
				return
			}
			smallest(t, name, c.body, res)
		})
		if !ok {
			break
		}
	}
	t.Logf("METRIC lin_clients=%d lin_executions=%d lin_histories=%d", ran, executions, linChecked)
	t.Logf("lin %s: %d of %d clients here (the rest in other processes), %d executions, %d histories checked, %v",
		object, ran, len(clients), executions, linChecked, time.Since(began).Round(time.Millisecond))
}

// smallestSuffix names the run of a failing client that reports its
// smallest schedule.
const smallestSuffix = "@smallest"

// linMaxStale is the weak mode's stale-read bound for the clients.
const linMaxStale = 2

// smallest runs a failing client again with the plain depth-first search,
// which tries bound 0, 1, ... of preemptions, at each stale-read bound
// from none up, and reports through Check the first failure of the
// smallest (stale reads, preemptions): the token, the page and the
// schedule of the smallest counterexample of this client.
func smallest(t *testing.T, name string, body func(), found explore.Result) {
	p := 3
	if found.Failure != nil {
		p = found.Failure.Preemptions
	}
	stale := []int{0}
	if explore.WeakMode() {
		stale = []int{-1, 1, 2}
	}
	best := explore.Options{Preemptions: -1, MaxStale: linMaxStale, MaxSchedules: 10 * linBudget}
	if p > 0 {
		best.Preemptions = p
	}
	for _, s := range stale {
		opt, err := explore.FromEnv(explore.Options{Preemptions: best.Preemptions, MaxStale: s, MaxSchedules: 10 * linBudget})
		if err != nil {
			t.Fatal(err)
		}
		opt.Reduce, opt.Unbounded, opt.Replay, opt.Claims = false, false, "", ""
		if r := explore.Explore(opt, body); r.Failure != nil {
			best.MaxStale = s
			if r.Failure.Preemptions == 0 {
				best.Preemptions = -1
			} else {
				best.Preemptions = r.Failure.Preemptions
			}
			break
		}
	}
	t.Logf("%s is the smallest client that fails; its smallest schedule follows (preemption bound %d, stale-read bound %d)", name, max(best.Preemptions, 0), max(best.MaxStale, 0))
	explore.Check(t, name+smallestSuffix, best, body)
	t.Fatalf("lin %s: failed in the full search, but not again in the smallest one (a flake is a bug): %v", name, found.Failure)
}
