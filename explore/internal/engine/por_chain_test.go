package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"
)

// chainRun plays a random run of steps on record p (a plain search's,
// no search behind it: begin, touch and finish only record), calling
// check after each step ends with the step's index.
func chainRun(rng *rand.Rand, p *porRun, check func(n int)) {
	locs := []uintptr{clockLoc, scLoc, threadLoc(0), threadLoc(1)}
	for k := range 6 + rng.IntN(20) {
		locs = append(locs, 0xc000010000+uintptr(8*k))
	}
	acc := func() access { return access{locs[rng.IntN(len(locs))], rng.IntN(3) == 0} }
	r := &run{}
	for k := range 1 + rng.IntN(5) {
		r.threads = append(r.threads, &thread{id: k})
	}
	for n := range 1 + rng.IntN(120) {
		c := rng.IntN(len(r.threads))
		t := r.threads[c]
		t.pend = t.pend[:0]
		for range rng.IntN(3) {
			t.pend = append(t.pend, acc())
		}
		t.pendAll = rng.IntN(30) == 0
		t.state = runnable
		if rng.IntN(4) == 0 {
			t.state = blocked
		}
		t.timedOut = t.state == blocked && rng.IntN(3) == 0
		p.begin(r, c, -1, 0)
		for range rng.IntN(4) {
			a := acc()
			if rng.IntN(40) == 0 {
				a.loc = 0 // everything
			}
			p.touch(r, a)
		}
		p.finish(r)
		if check != nil {
			check(n)
		}
	}
}

// The chains of the locations (accLink, scanBack) stand for the scan
// back over every earlier step that race did: on random runs (steps of
// a few goroutines touching a few locations, reading and writing, some
// touching everything), the steps scanBack returns from i for the step
// just ended, n, start with i, go back strictly, and hold every step
// before i that conflicts with n (stepsConflict), which race tests them
// for, so that it visits the conflicting steps in the order the full scan
// did.
func TestScanBackFindsEveryConflictTheFullScanFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var spare *porRun
	screened, visited, full := 0, 0, 0
	for range 400 {
		p := newPorRun(nil, spare, -1)
		chainRun(rng, p, func(n int) {
			if n == 0 {
				return
			}
			for range 3 {
				i := rng.IntN(n)
				var got []int
				it := p.scanBack(i, n)
				for j := i; j >= 0; j = it.next(p) {
					if len(got) > 0 && j >= got[len(got)-1] {
						t.Fatalf("scanBack(%d, %d) returned %v then %d: not latest first", i, n, got, j)
					}
					got = append(got, j)
				}
				if len(got) == 0 || got[0] != i {
					t.Fatalf("scanBack(%d, %d) returned %v: not %d first", i, n, got, i)
				}
				en := &p.events[n]
				for j := i - 1; j >= 0; j-- {
					if stepsConflict(&p.events[j], en) && !slices.Contains(got, j) {
						t.Fatalf("scanBack(%d, %d) returned %v, not %d, which conflicts with %d (%v, everything %v; %v, everything %v)",
							i, n, got, j, n, p.events[j].acc, p.events[j].all, en.acc, en.all)
					}
				}
				visited += len(got)
				full += i + 1
				if len(got) < i+1 {
					screened++
				}
			}
		})
		spare = p
	}
	if screened == 0 || visited >= full {
		t.Fatalf("scanBack screened out no step (%d returned of %d): the test does not reach the chains", visited, full)
	}
}

// A record reused for a new run (newPorRun with a spare) ends with the
// same steps as a new record given the same run: begin sets every field
// of a step it makes in the place of an old one, and the chains and
// location records start empty.
func TestReusedRecordMakesTheSameSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var spare *porRun
	for k := range 300 {
		seed := uint64(k)
		fresh := newPorRun(nil, nil, -1)
		chainRun(rand.New(rand.NewPCG(seed, 9)), fresh, nil)
		reused := newPorRun(nil, spare, -1)
		chainRun(rand.New(rand.NewPCG(seed, 9)), reused, nil)
		if len(fresh.events) != len(reused.events) {
			t.Fatalf("run %d: %d steps fresh, %d reused", k, len(fresh.events), len(reused.events))
		}
		for i := range fresh.events {
			a, b := fresh.events[i], reused.events[i]
			if !slices.Equal(a.acc, b.acc) || !slices.Equal(a.clock, b.clock) {
				t.Fatalf("run %d, step %d: accesses %v and %v, clocks %v and %v", k, i, a.acc, b.acc, a.clock, b.clock)
			}
			a.acc, b.acc, a.clock, b.clock = nil, nil, nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("run %d, step %d: fresh %+v, reused %+v", k, i, a, b)
			}
		}
		// The next spare is left by a different run, its steps, and
		// every slot past them, filled with values that no step has.
		spare = newPorRun(nil, reused, -1)
		chainRun(rng, spare, nil)
		for i := range spare.events[:cap(spare.events)] {
			scribble(reflect.ValueOf(&spare.events[:cap(spare.events)][i]).Elem())
		}
	}
}

// scribble sets every number and flag of struct v, at any depth, to a
// value no step of chainRun's has (77, every bit, true), leaving slices.
func scribble(v reflect.Value) {
	for k := range v.NumField() {
		f := v.Field(k)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem() // unexported fields too
		switch f.Kind() {
		case reflect.Struct:
			scribble(f)
		case reflect.Int, reflect.Int32, reflect.Int64:
			f.SetInt(77)
		case reflect.Uint8, reflect.Uint32, reflect.Uint64:
			f.SetUint(^uint64(0) >> (64 - 8*f.Type().Size()))
		case reflect.Bool:
			f.SetBool(true)
		}
	}
}
