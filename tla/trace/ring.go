//go:build tlatrace

package trace

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/wsched/wsched/internal/tlatrace"
)

// RingModel is how a log of impl/queue's Rings maps onto ThreePhaseSteal:
// which ring is the spec's ring 0, 1 and 2, and the constants of the model
// (TLC takes one set of constants per batch).
type RingModel struct {
	Rings  map[any]int // each logged ring (a *queue.Ring) -> 0, 1 or 2
	CAP    int         // queue.Capacity of the build
	M      int         // index modulus: divides 2^32, > CAP
	Start  uint32      // every ring's first position (NewRingAt)
	T0, T1 int         // tasks pushed into ring 0 and into ring 1
	V1, V2 []int       // the rings thief 1 and thief 2 steal from
	// Switch, when set, is one of the spec's bug switches set TRUE (a
	// mutant of the spec: a guard dropped), e.g. "PushBoundByReal".
	Switch string
}

// Constants is the CONSTANTS section of the model's configuration.
func (m RingModel) Constants() string {
	set := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprint(x)
		}
		return "{" + strings.Join(s, ", ") + "}"
	}
	c := fmt.Sprintf("CONSTANTS\n    CAP = %d\n    M = %d\n    Start = %d\n    T0 = %d\n    T1 = %d\n    V1 = %s\n    V2 = %s\n",
		m.CAP, m.M, int(m.Start)%m.M, m.T0, m.T1, set(m.V1), set(m.V2))
	for _, sw := range []string{"NoDstRoomCheck", "OverflowDuringSteal", "NoStealInFlightCheck", "PushBoundByReal"} {
		c += fmt.Sprintf("    %s = %s\n", sw, tlaBool(sw == m.Switch))
	}
	return c
}

// RingLog is evs as a TLA+ sequence of the records TraceThreePhaseSteal
// reads. Tasks are numbered as the spec numbers them: ring 0's pushes 1..T0
// in push order, ring 1's T0+1..T0+T1. It fails on an event of a ring
// the model does not name, or on a task nobody pushed.
func (m RingModel) RingLog(evs []tlatrace.Event) (string, error) {
	ids := map[any]int{}
	pushed := [2]int{}
	var b strings.Builder
	b.WriteString("<<")
	for j, e := range evs {
		if e.Proc == tlatrace.StrandProc {
			continue // Stranding's record (a push into a global queue)
		}
		p, ok := m.Rings[e.Proc]
		if !ok {
			return "", fmt.Errorf("record %d (%s): its process is a ring the model does not name", j+1, e.Action)
		}
		v, ok := m.Rings[e.Ring]
		if !ok {
			return "", fmt.Errorf("record %d (%s): a ring the model does not name", j+1, e.Action)
		}
		task := 0
		if e.Task != nil && !isNil(e.Task) {
			if e.Action == "PushBegin" {
				if p > 1 {
					return "", fmt.Errorf("record %d: ring %d pushes, but only rings 0 and 1 push in ThreePhaseSteal", j+1, p)
				}
				if _, seen := ids[e.Task]; !seen {
					pushed[p]++
					ids[e.Task] = pushed[p] + map[bool]int{true: m.T0}[p == 1]
				}
			}
			id, ok := ids[e.Task]
			if !ok {
				return "", fmt.Errorf("record %d (%s): a task nobody pushed", j+1, e.Action)
			}
			task = id
		}
		if j > 0 {
			b.WriteString(",\n")
		}
		md := func(x uint32) uint32 { return x % uint32(m.M) }
		fmt.Fprintf(&b, "[a |-> %q, p |-> %d, v |-> %d, s |-> %d, r |-> %d, t |-> %d, n |-> %d, ok |-> %s, task |-> %d]",
			e.Action, p, v, md(e.Steal), md(e.Real), md(e.Tail), e.N, tlaBool(e.OK), task)
	}
	b.WriteString(">>")
	if pushed[0] > m.T0 || pushed[1] > m.T1 {
		return "", fmt.Errorf("the log pushes %d and %d tasks into rings 0 and 1; the model has T0 = %d, T1 = %d", pushed[0], pushed[1], m.T0, m.T1)
	}
	return b.String(), nil
}

func tlaBool(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// isNil reports whether x holds a nil pointer (a Task of none).
func isNil(x any) bool {
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
