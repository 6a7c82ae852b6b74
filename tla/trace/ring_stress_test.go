//go:build tlatrace && !explore

package trace

import (
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/internal/tlatrace"
)

type item struct{ id int }

// The stress runs have ThreePhaseSteal's three processes, with real
// parallelism (GOMAXPROCS as the machine has it; with -tags chaos the
// chaos points widen the race windows): the owner of ring 0 pushes T0
// tasks, popping now and then; thief 1 pushes T1 tasks into its own ring
// 1, pops it and steals from ring 0; thief 2 pops its ring 2 and steals
// from rings 0 and 1 (a chained steal: ring 1's owner may be stealing
// into it). Every ring starts just below 2^32, so positions wrap. The
// overflow queue is a real Global; the spec counts what goes there and
// nothing reads it, so nothing here does either.
const (
	stressT0    = 120
	stressT1    = 30
	stressStart = 1<<32 - 150
	stressM     = 1024 // divides 2^32; > Capacity (256)
)

func stressModel() RingModel {
	return RingModel{CAP: queue.Capacity, M: stressM, Start: stressStart,
		T0: stressT0, T1: stressT1, V1: []int{0}, V2: []int{0, 1}}
}

// stressRun runs the three processes once and returns the log.
func stressRun(seed uint64) ([]tlatrace.Event, RingModel) {
	m := stressModel()
	g := queue.NewGlobal[item]()
	r := [3]*queue.Ring[item]{}
	m.Rings = map[any]int{}
	for i := range r {
		r[i] = queue.NewRingAt[item](stressStart)
		m.Rings[r[i]] = i
	}
	its := make([]item, stressT0+stressT1)
	tlatrace.Start()
	var wg sync.WaitGroup
	wg.Go(func() { // the owner of ring 0
		rng := rand.New(rand.NewPCG(seed, 0))
		for k := range stressT0 {
			r[0].Push(&its[k], g)
			if rng.IntN(3) == 0 {
				r[0].Pop()
			}
			if rng.IntN(8) == 0 {
				runtime.Gosched()
			}
		}
		for r[0].Pop() != nil {
		}
	})
	wg.Go(func() { // thief 1: pushes into ring 1, steals from ring 0
		rng := rand.New(rand.NewPCG(seed, 1))
		for k := 0; k < stressT1 || rng.IntN(40) != 0; {
			switch rng.IntN(4) {
			case 0:
				if k < stressT1 {
					r[1].Push(&its[stressT0+k], g)
					k++
				}
			case 1:
				r[1].Pop()
			default:
				r[0].StealInto(r[1])
			}
			if rng.IntN(4) == 0 {
				runtime.Gosched()
			}
		}
	})
	wg.Go(func() { // thief 2: steals from rings 0 and 1
		rng := rand.New(rand.NewPCG(seed, 2))
		for range 80 {
			if rng.IntN(3) == 0 {
				r[2].Pop()
			} else {
				r[rng.IntN(2)].StealInto(r[2])
			}
			if rng.IntN(4) == 0 {
				runtime.Gosched()
			}
		}
	})
	wg.Wait()
	return tlatrace.Stop(), m
}

// TestTraceRingStress makes one log per stress run and has TLC check all
// of them against ThreePhaseSteal in one run. WSCHED_LONG=1: 20 runs, not 4.
func TestTraceRingStress(t *testing.T) {
	runs := 4
	if os.Getenv("WSCHED_LONG") == "1" {
		runs = 20
	}
	var logs []string
	events, steals := 0, 0
	began := time.Now()
	for k := range runs {
		evs, m := stressRun(uint64(k) + 1)
		for _, e := range evs {
			if e.Action == "StClaim" && e.OK {
				steals++
			}
		}
		events += len(evs)
		s, err := m.RingLog(evs)
		if err != nil {
			t.Fatalf("run %d: %v", k, err)
		}
		logs = append(logs, s)
	}
	t.Logf("%d stress runs, %d actions logged (%d successful claims), %s", runs, events, steals, time.Since(began).Round(time.Millisecond))
	if steals == 0 {
		t.Fatal("no steal in any run: the logs do not exercise the steal protocol")
	}
	validate(t, Jar(), "ring/stress", stressModel(), logs, 1)
}
