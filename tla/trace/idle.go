//go:build tlatrace

package trace

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/wsched/wsched/internal/tlatrace"
)

// IdleModel is the configuration of IdleProtocol a log of impl/idle is
// checked against: the workers and the tasks of the run. TLC takes one set
// of constants per batch.
type IdleModel struct {
	N          int // workers
	ExtTasks   int // tasks spawned from outside (by the one producer)
	SpawnTasks int // tasks spawned by tasks
	LongTasks  int // tasks that may run for ever
	Spurious   int // spurious wakes allowed
	// Switch, when set, is one of the spec's bug switches set TRUE (a
	// mutant of the spec), e.g. "DecBeforeBit".
	Switch string
}

// Constants is the CONSTANTS section: the design impl/idle implements
// (IdleGo.cfg's switches), with impl/sched's first global poll, its
// rounds before a park and its batch takes of the global queue
// (GlobalFirst, RetryRound: IdleGoTicks.cfg; GlobalBatch: IdleGoBatch.cfg).
func (m IdleModel) Constants() string {
	c := fmt.Sprintf(`CONSTANTS
    N = %d
    ExtTasks = %d
    SpawnTasks = %d
    LongTasks = %d
    Spurious = %d
    Stealing = TRUE
    SeedWakeReason = FALSE
    SeedParkSeq = FALSE
    RemoteLIFO = FALSE
    SeedFinalCheck = FALSE
    NoRule2Notify = FALSE
    NoFinalCheck = FALSE
    DecBeforeBit = FALSE
    ClaimWaitsToken = FALSE
    SignedNs = TRUE
    GlobalFirst = TRUE
    RetryRound = TRUE
    GlobalBatch = TRUE
`, m.N, m.ExtTasks, m.SpawnTasks, m.LongTasks, m.Spurious)
	if m.Switch != "" {
		c = strings.Replace(c, "    "+m.Switch+" = FALSE\n", "    "+m.Switch+" = TRUE\n", 1)
	}
	return c
}

// IdleInvariants are IdleProtocol's invariants checked along every log.
var IdleInvariants = []string{"TypeOK", "Conservation", "CountersAgree", "NoStranded"}

// IdleLog is evs (the idle records of one log) as a TLA+ sequence of the
// records TraceIdleProtocol reads. A record of a goroutine that is no
// worker is the producer's, P (= N). It fails on what IdleProtocol does
// not have: two such goroutines (the spec has one producer), an extra
// worker's credit (AddSearcher, StopSearching: the monitor's, not in the
// spec), a worker index outside 0..N-1.
func (m IdleModel) IdleLog(evs []tlatrace.Event) (string, error) {
	var b strings.Builder
	b.WriteString("<<")
	producer := int64(-1)
	n := 0
	for j, e := range evs {
		p, ok := e.Proc.(int)
		if !ok || monitorOnly[e.Action] {
			continue // a record of another protocol (the ring's, MonitorIdle's)
		}
		switch e.Action {
		case "AddSearcher", "StopSearching":
			return "", fmt.Errorf("record %d: %s, an extra worker's credit, is not an action of IdleProtocol", j+1, e.Action)
		}
		if p < 0 {
			if producer >= 0 && producer != e.G {
				return "", fmt.Errorf("record %d (%s): a second goroutine that is no worker acts (goroutines %d and %d); IdleProtocol has one producer", j+1, e.Action, producer, e.G)
			}
			producer, p = e.G, m.N
		}
		if p > m.N || e.Worker < 0 || e.Worker >= m.N {
			return "", fmt.Errorf("record %d (%s): process %d or worker %d outside the model's %d workers", j+1, e.Action, p, e.Worker, m.N)
		}
		var ids []string
		for bm := e.Bits; bm != 0; bm &= bm - 1 {
			ids = append(ids, fmt.Sprint(bits.TrailingZeros64(bm)))
		}
		if n > 0 {
			b.WriteString(",\n")
		}
		n++
		fmt.Fprintf(&b, "[a |-> %q, p |-> %d, w |-> %d, x |-> %d, bm |-> {%s}, ok |-> %s]",
			e.Action, p, e.Worker, e.X, strings.Join(ids, ", "), tlaBool(e.OK))
	}
	b.WriteString(">>")
	return b.String(), nil
}
