//go:build !explore

package sched

// searchLedger is empty outside the explore build (see ledger_explore.go).
type searchLedger struct{}

// flagged is empty here: no ledger is kept.
func (rt *Runtime) flagged(int32) {}

func (rt *Runtime) checkLedger(int, string) {}

func (rt *Runtime) checkLedgerAtEnd() {}
