package linearizability

import (
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/anishathalye/porcupine"
)

// Clock stamps calls and returns. A logical clock (one atomic counter)
// orders every stamp taken by any goroutine, without the resolution limits
// of wall time: if one call's return stamp is below another's call stamp,
// the first really returned before the second was called.
type Clock struct{ n atomic.Int64 }

func (c *Clock) tick() int64 { return c.n.Add(1) }

// Check asks porcupine whether ops is linearizable with respect to m. On
// any answer other than Ok (Illegal, or Unknown when the timeout ran out)
// it writes porcupine's HTML view of the history and of the longest
// linearizable prefixes to a file under os.TempDir(), and returns an error
// naming that file and saying where the longest prefix got stuck.
func Check(m porcupine.Model, name string, ops []porcupine.Operation, timeout time.Duration) error {
	res, info := porcupine.CheckOperationsVerbose(m, ops, timeout)
	if res == porcupine.Unknown {
		// Unknown is no verdict: the search ran out of time, which a rare
		// history with many long overlapping calls can do on a loaded
		// machine. Give the same history a much longer search before
		// calling it a failure; it is never counted as a pass.
		timeout *= unknownRetryFactor
		res, info = porcupine.CheckOperationsVerbose(m, ops, timeout)
	}
	if res == porcupine.Ok {
		return nil
	}
	head := fmt.Sprintf("%s: porcupine says %s over %d operations (Unknown = no answer within %v)", name, res, len(ops), timeout)
	f, err := os.CreateTemp("", "wsched-lin-"+name+"-*.html")
	if err != nil {
		return fmt.Errorf("%s; cannot write the HTML view: %v", head, err)
	}
	path := f.Name()
	f.Close()
	if err := porcupine.VisualizePath(m, info, path); err != nil {
		return fmt.Errorf("%s; writing the HTML view failed: %v", head, err)
	}
	return fmt.Errorf("%s.\nHTML view: %s\n%s", head, path, stuck(m, ops, info, res))
}

// unknownRetryFactor is how much longer the second search of a history
// whose first search gave no verdict may run.
const unknownRetryFactor = 9

// stuck describes where the longest linearizable prefix found ends: the
// model state after it, and the operations that could come next in real
// time (called before the earliest return among the rest). When res is
// Illegal the model refuses each of them in that state; when it is Unknown
// the search ran out of time there and the history may be linearizable.
func stuck(m porcupine.Model, ops []porcupine.Operation, info porcupine.LinearizationInfo, res porcupine.CheckResult) string {
	var longest []porcupine.Operation
	for _, part := range info.PartialLinearizationsOperations() {
		for _, lin := range part {
			if len(lin) > len(longest) {
				longest = lin
			}
		}
	}
	state := m.Init()
	done := make(map[[2]int64]bool)
	for _, op := range longest {
		_, state = m.Step(state, op.Input, op.Output)
		done[[2]int64{op.Call, op.Return}] = true
	}
	var rest []porcupine.Operation
	firstReturn := int64(math.MaxInt64)
	for _, op := range ops {
		if !done[[2]int64{op.Call, op.Return}] {
			rest = append(rest, op)
			firstReturn = min(firstReturn, op.Return)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Longest linearizable prefix: %d of %d operations; model state after it:\n  %s\n", len(longest), len(ops), m.DescribeState(state))
	if res == porcupine.Unknown {
		b.WriteString("Operations that could come next (no verdict: the search ran out of time, not out of orders to try):\n")
	} else {
		b.WriteString("Operations that could come next, none of which the model accepts there:\n")
	}
	for _, op := range rest {
		if op.Call <= firstReturn {
			fmt.Fprintf(&b, "  [%d,%d] client %d: %s\n", op.Call, op.Return, op.ClientId, m.DescribeOperation(op.Input, op.Output))
		}
	}
	return b.String()
}
