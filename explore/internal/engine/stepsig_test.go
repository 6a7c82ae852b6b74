package engine

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The signature screen decides as the accesses do: stepsConflict answers
// what stepSummary.conflicts does for steps of aligned addresses, small
// numbers (a goroutine's end) and the named locations (the clock), few
// enough that their bits collide often, and many, where they all but fill
// the signature.
func TestStepSignatureScreensConflictsExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	locs := []uintptr{clockLoc, scLoc, threadLoc(0), threadLoc(1), threadLoc(5)}
	for k := range 40 {
		locs = append(locs, 0xc000010000+uintptr(8*k))
	}
	step := func(n int) porEvent {
		var e porEvent
		e.all = rng.IntN(20) == 0
		for range n {
			e.acc = append(e.acc, access{locs[rng.IntN(len(locs))], rng.IntN(2) == 0})
		}
		for _, a := range e.acc { // as finish sets them
			e.sig |= sigBit(a.loc)
			if a.write {
				e.wsig |= sigBit(a.loc)
			}
		}
		return e
	}
	conflicts, screened := 0, 0
	for range 20000 {
		size := 1 + rng.IntN(4)
		if rng.IntN(10) == 0 {
			size = 30
		}
		a, b := step(size), step(1+rng.IntN(4))
		want := a.conflicts(&b.stepSummary)
		if got := stepsConflict(&a, &b); got != want {
			t.Fatalf("%v (everything %v) and %v (everything %v): stepsConflict %v, conflicts %v", a.acc, a.all, b.acc, b.all, got, want)
		}
		if want {
			conflicts++
		} else if a.wsig&b.sig == 0 && a.sig&b.wsig == 0 {
			screened++
		}
	}
	if conflicts == 0 || screened == 0 {
		t.Fatalf("%d conflicting pairs, %d screened out by the signatures: the test reaches neither side", conflicts, screened)
	}
	if clockSig != sigBit(clockLoc) {
		t.Fatalf("clockSig %x, the clock's bit %x", clockSig, sigBit(clockLoc))
	}
}

// The fields the scans back over a run read share the event's first 64
// bytes, and an event is 128.
func TestPorEventLayout(t *testing.T) {
	var e porEvent
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is laid out for 64-bit words")
	}
	if s := unsafe.Sizeof(e); s != 128 {
		t.Errorf("porEvent is %d bytes, want 128", s)
	}
	for name, off := range map[string]uintptr{"tid": unsafe.Offsetof(e.tid), "local": unsafe.Offsetof(e.local),
		"dec": unsafe.Offsetof(e.dec), "en": unsafe.Offsetof(e.en), "sig": unsafe.Offsetof(e.sig),
		"wsig": unsafe.Offsetof(e.wsig), "free": unsafe.Offsetof(e.free)} {
		if off >= 64 {
			t.Errorf("porEvent.%s at byte %d, past the first 64", name, off)
		}
	}
}
