//go:build explore

package sched

import (
	"fmt"

	"github.com/wsched/wsched/explore/atomic"
)

// searchLedger counts the workers whose searching flag is set, in the
// explore build only (transitions.go). A Stat type: not a scheduling
// point, so a flag and its count change in one step of the explorer.
type searchLedger struct{ n atomic.StatInt32 }

// flagged counts a searching flag set (1) or cleared (-1).
func (rt *Runtime) flagged(d int32) { rt.ledger.n.Add(d) }

// checkLedger panics when fewer credits exist (given, or in flight from a
// notifier's claim) than workers search: a flag set without its credit,
// or a credit given back while the flag stays.
func (rt *Runtime) checkLedger(worker int, what string) {
	ns, claiming := rt.idle.Ledger()
	if f := rt.ledger.n.Load(); ns+claiming < f {
		panic(fmt.Sprintf("sched: worker %d %s: %d workers search but num_searching is %d (+%d claims in flight): a searching flag without its credit", worker, what, f, ns, claiming))
	}
}

// checkLedgerAtEnd panics unless, with every goroutine of the runtime gone,
// no flag is set and no credit is held: a credit never given back makes
// every later publisher skip its wake.
func (rt *Runtime) checkLedgerAtEnd() {
	ns, claiming := rt.idle.Ledger()
	if f := rt.ledger.n.Load(); ns != 0 || claiming != 0 || f != 0 {
		panic(fmt.Sprintf("sched: after the last exit: num_searching %d, claims in flight %d, searching flags %d; want all 0 (a credit not given back)", ns, claiming, f))
	}
}
