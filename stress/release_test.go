package stress

import (
	"runtime"
	"testing"
	"weak"
)

// checkReleased is the "no reference kept" property of the queues: once
// every task has been taken, none of them is reachable from a queue any
// more. Whoever takes a task (Pop, a steal, an overflow, PopBatch) clears
// the slot it took it from, so finished tasks can be collected while the
// queues live on. The ledger's tasks share one backing array, so a single
// pointer left in any slot keeps the whole array alive. keep holds the
// queues, which must stay reachable until the check is done.
func checkReleased(t *testing.T, l *ledger, keep ...any) {
	t.Helper()
	items := weak.Make(&l.items[0])
	l.items = nil
	for range 2 {
		runtime.GC()
	}
	if items.Value() != nil {
		t.Errorf("every task was taken, yet after GC the queues still keep some of them reachable: a taken slot was not cleared")
	}
	runtime.KeepAlive(keep)
}
