//go:build !explore

// White-box tests of the production ring of 256 slots; the explore build's
// ring of 4 has its scenarios in explore/scenarios.

package queue

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

type task struct{ id int }

// recorder is an Injector that remembers every call, in order.
type recorder struct {
	single  []*task
	batches [][]*task
	all     []*task
}

func (r *recorder) Push(t *task) { r.single = append(r.single, t); r.all = append(r.all, t) }
func (r *recorder) PushBatch(ts []*task) {
	r.batches = append(r.batches, slices.Clone(ts))
	r.all = append(r.all, ts...)
}

func tasks(from, n int) []*task {
	ts := make([]*task, n)
	for i := range ts {
		ts[i] = &task{id: from + i}
	}
	return ts
}

func ids(ts []*task) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = t.id
	}
	return out
}

func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// checkRing verifies the ring's invariants in a quiescent state: positions
// in order, occupied slots exactly [steal, tail), free slots nil.
func checkRing(t *testing.T, r *Ring[task]) {
	t.Helper()
	steal, real := unpack(r.head.LoadRelaxed())
	tail := r.tail.LoadRelaxed()
	if real-steal > Capacity || tail-real > Capacity || tail-steal > Capacity {
		t.Fatalf("positions out of order: steal=%d real=%d tail=%d", steal, real, tail)
	}
	for i := uint32(0); i < Capacity; i++ {
		pos := steal + i
		occupied := pos-steal < tail-steal
		// Slots in [steal, real) belong to an unfinished steal; in a
		// quiescent ring they are occupied too (the thief has not copied).
		got := r.buf[pos&mask].Load()
		if occupied && got == nil {
			t.Fatalf("slot of position %d is empty inside [steal=%d, tail=%d)", pos, steal, tail)
		}
		if !occupied && got != nil {
			t.Fatalf("slot of position %d holds task %d outside [steal=%d, tail=%d)", pos, got.id, steal, tail)
		}
	}
}

func drain(r *Ring[task]) []*task {
	var out []*task
	for t := r.Pop(); t != nil; t = r.Pop() {
		out = append(out, t)
	}
	return out
}

func TestPushPopFIFO(t *testing.T) {
	r := NewRing[task]()
	var inj recorder
	if r.Pop() != nil || r.Len() != 0 {
		t.Fatal("new ring not empty")
	}
	for _, x := range tasks(0, 200) {
		if n := r.Push(x, &inj); n != 0 {
			t.Fatalf("Push with room overflowed %d", n)
		}
	}
	if r.Len() != 200 {
		t.Fatalf("Len = %d, want 200", r.Len())
	}
	checkRing(t, r)
	got := drain(r)
	if !slices.Equal(ids(got), seq(0, 200)) {
		t.Fatalf("pop order %v", ids(got))
	}
	if r.Len() != 0 || len(inj.all) != 0 {
		t.Fatalf("Len=%d injected=%d after draining", r.Len(), len(inj.all))
	}
	checkRing(t, r)
}

func TestPushOverflowsOldestHalfInOneBatch(t *testing.T) {
	r := NewRing[task]()
	var inj recorder
	for _, x := range tasks(0, Capacity) {
		if n := r.Push(x, &inj); n != 0 {
			t.Fatalf("Push %d overflowed %d", x.id, n)
		}
	}
	if n := r.Push(&task{id: Capacity}, &inj); n != MaxSteal {
		t.Fatalf("Push into full ring returned %d, want %d", n, MaxSteal)
	}
	if len(inj.batches) != 1 || len(inj.single) != 0 {
		t.Fatalf("got %d batches and %d single pushes, want 1 and 0", len(inj.batches), len(inj.single))
	}
	if !slices.Equal(ids(inj.batches[0]), seq(0, MaxSteal)) {
		t.Fatalf("overflow batch %v, want the oldest %d in order", ids(inj.batches[0]), MaxSteal)
	}
	if r.Len() != Capacity-MaxSteal+1 {
		t.Fatalf("Len = %d after overflow", r.Len())
	}
	checkRing(t, r)
	if got := drain(r); !slices.Equal(ids(got), seq(MaxSteal, Capacity-MaxSteal+1)) {
		t.Fatalf("ring after overflow pops %v", ids(got))
	}
}

// claimOnly runs phase one of a steal and leaves it in flight, as a thief
// that stalls between claim and release would.
func claimOnly(t *testing.T, r *Ring[task]) (start, n uint32) {
	t.Helper()
	start, n = r.claim(NewRing[task](), 0) // an empty destination: room for a whole batch
	if n == 0 {
		t.Fatal("claim failed on a quiet ring")
	}
	return start, n
}

func TestPushFullDuringStealOverflowsOnlyTheNewTask(t *testing.T) {
	r := NewRing[task]()
	var inj recorder
	for _, x := range tasks(0, Capacity) {
		r.Push(x, &inj)
	}
	start, n := claimOnly(t, r)
	if n != MaxSteal {
		t.Fatalf("claimed %d, want %d", n, MaxSteal)
	}
	// The owner pops a few while the steal is in flight: real moves past
	// the claim, steal must not. The ring now has room by its real head
	// but none by its steal head.
	for i := range 5 {
		if got := r.Pop(); got == nil || got.id != MaxSteal+i {
			t.Fatalf("pop during steal got %v, want %d", got, MaxSteal+i)
		}
	}
	if steal, real := unpack(r.head.LoadRelaxed()); steal != start || real != start+n+5 {
		t.Fatalf("head after pops during steal: steal=%d real=%d, want %d and %d", steal, real, start, start+n+5)
	}
	x := &task{id: 1000}
	if got := r.Push(x, &inj); got != 1 {
		t.Fatalf("Push into a ring full by its steal head returned %d, want 1", got)
	}
	if len(inj.single) != 1 || inj.single[0] != x || len(inj.batches) != 0 {
		t.Fatalf("injector got single=%v batches=%d, want only the new task", ids(inj.single), len(inj.batches))
	}
	// The claimed slots are intact: the thief can still copy them.
	for i := range n {
		if got := r.buf[(start+i)&mask].Load(); got == nil || got.id != int(i) {
			t.Fatalf("claimed slot %d changed to %v during the steal", i, got)
		}
	}
	dst := NewRing[task]()
	first := r.moveClaimed(start, n, dst, dst.tail.LoadRelaxed())
	r.release(start, start+n)
	if first.id != 0 || !slices.Equal(ids(drain(dst)), seq(1, int(n)-1)) {
		t.Fatal("the stalled steal did not get its claimed tasks")
	}
	checkRing(t, r)
	if got := r.Push(&task{id: 1001}, &inj); got != 0 {
		t.Fatalf("Push after the steal released returned %d, want 0", got)
	}
	checkRing(t, r)
}

func TestStealTakesOldestHalf(t *testing.T) {
	for _, size := range []int{1, 2, 3, 7, 64, 200, 255, 256} {
		r, dst := NewRing[task](), NewRing[task]()
		var inj recorder
		for _, x := range tasks(0, size) {
			r.Push(x, &inj)
		}
		want := min((size+1)/2, MaxSteal)
		first, n := r.StealInto(dst)
		if n != want || first == nil || first.id != 0 {
			t.Fatalf("size %d: StealInto = (%v, %d), want task 0 and %d", size, first, n, want)
		}
		if dst.Len() != want-1 || r.Len() != size-want {
			t.Fatalf("size %d: dst.Len=%d r.Len=%d", size, dst.Len(), r.Len())
		}
		checkRing(t, r)
		checkRing(t, dst)
		if got := drain(dst); !slices.Equal(ids(got), seq(1, want-1)) {
			t.Fatalf("size %d: dst holds %v", size, ids(got))
		}
		if got := drain(r); !slices.Equal(ids(got), seq(want, size-want)) {
			t.Fatalf("size %d: victim holds %v", size, ids(got))
		}
	}
}

func TestStealFromEmpty(t *testing.T) {
	r, dst := NewRing[task](), NewRing[task]()
	if first, n := r.StealInto(dst); first != nil || n != 0 {
		t.Fatalf("StealInto from empty = (%v, %d)", first, n)
	}
}

func TestStealRefusedWhileStealInFlight(t *testing.T) {
	r := NewRing[task]()
	var inj recorder
	for _, x := range tasks(0, 100) {
		r.Push(x, &inj)
	}
	start, n := claimOnly(t, r)
	before := r.head.LoadRelaxed()
	dst := NewRing[task]()
	if first, k := r.StealInto(dst); first != nil || k != 0 {
		t.Fatalf("second steal while one is in flight = (%v, %d), want refusal", first, k)
	}
	if r.head.LoadRelaxed() != before || dst.Len() != 0 {
		t.Fatal("refused steal changed the victim or the destination")
	}
	// The first steal finishes and the ring is stealable again.
	other := NewRing[task]()
	r.moveClaimed(start, n, other, other.tail.LoadRelaxed())
	r.release(start, start+n)
	if first, k := r.StealInto(dst); first == nil || k != 25 || first.id != 50 {
		t.Fatalf("steal after release = (%v, %d), want task 50 and 25", first, k)
	}
}

func TestPopDuringStealMovesOnlyReal(t *testing.T) {
	r := NewRing[task]()
	var inj recorder
	for _, x := range tasks(0, 10) {
		r.Push(x, &inj)
	}
	start, n := claimOnly(t, r) // claims 0..4
	// Claimed tasks are no longer takeable: Len counts from the real head.
	if r.Len() != 5 {
		t.Fatalf("Len during a steal = %d, want 5", r.Len())
	}
	if got := r.Pop(); got == nil || got.id != 5 {
		t.Fatalf("pop during steal = %v, want 5", got)
	}
	if steal, real := unpack(r.head.LoadRelaxed()); steal != start || real != start+n+1 {
		t.Fatalf("head = [%d|%d], want [%d|%d]", steal, real, start, start+n+1)
	}
	if got := r.Pop(); got == nil || got.id != 6 {
		t.Fatalf("second pop during steal = %v, want 6", got)
	}
	dst := NewRing[task]()
	r.moveClaimed(start, n, dst, dst.tail.LoadRelaxed())
	r.release(start, start+n)
	// release brings steal up to the real head as it is now, not as it was
	// at the claim.
	if steal, real := unpack(r.head.LoadRelaxed()); steal != start+n+2 || real != start+n+2 {
		t.Fatalf("head after release = [%d|%d], want [%d|%d]", steal, real, start+n+2, start+n+2)
	}
	if got := drain(r); !slices.Equal(ids(got), []int{7, 8, 9}) {
		t.Fatalf("victim after release pops %v, want 7 8 9", ids(got))
	}
	checkRing(t, r)
}

func TestStealClearsTakenSlots(t *testing.T) {
	r, dst := NewRing[task](), NewRing[task]()
	var inj recorder
	for _, x := range tasks(0, 40) {
		r.Push(x, &inj)
	}
	r.StealInto(dst) // takes 0..19
	for pos := range uint32(20) {
		if r.buf[pos].Load() != nil {
			t.Fatalf("stolen slot %d not cleared", pos)
		}
	}
	r.Pop() // takes 20
	if r.buf[20].Load() != nil {
		t.Fatal("popped slot not cleared")
	}
	checkRing(t, r)
	checkRing(t, dst)
}

func TestStealRefusesWhenDstLacksRoom(t *testing.T) {
	var inj recorder
	r := NewRing[task]()
	for _, x := range tasks(0, 20) { // a steal takes 10 and appends 9
		r.Push(x, &inj)
	}
	for _, fill := range []int{Capacity - 8, Capacity - 1, Capacity} {
		dst := NewRing[task]()
		for _, x := range tasks(1000, fill) {
			dst.Push(x, &inj)
		}
		hr, tr := r.head.LoadRelaxed(), r.tail.LoadRelaxed()
		if first, n := r.StealInto(dst); first != nil || n != 0 {
			t.Fatalf("dst with %d tasks: StealInto = (%v, %d), want refusal", fill, first, n)
		}
		if r.head.LoadRelaxed() != hr || r.tail.LoadRelaxed() != tr || dst.Len() != fill {
			t.Fatalf("dst with %d tasks: refused steal changed a ring", fill)
		}
		checkRing(t, dst)
	}
	// Exactly enough room is enough.
	dst := NewRing[task]()
	for _, x := range tasks(1000, Capacity-9) {
		dst.Push(x, &inj)
	}
	if first, n := r.StealInto(dst); first == nil || n != 10 {
		t.Fatalf("dst with room for exactly 9: StealInto = (%v, %d), want 10", first, n)
	}
	if dst.Len() != Capacity || len(inj.all) != 0 {
		t.Fatalf("dst.Len = %d, injected %d", dst.Len(), len(inj.all))
	}
	checkRing(t, dst)
}

// The destination's room is bounded by its steal head: slots a thief of dst
// is still copying are not free even after dst's owner popped past them.
func TestStealDstRoomCountsItsInFlightSteal(t *testing.T) {
	var inj recorder
	dst := NewRing[task]()
	for _, x := range tasks(1000, Capacity) {
		dst.Push(x, &inj)
	}
	dstart, dn := claimOnly(t, dst) // a thief of dst claims 128 and stalls
	for range 120 {
		dst.Pop()
	}
	if dst.Len() != Capacity-MaxSteal-120 {
		t.Fatalf("dst.Len = %d", dst.Len())
	}
	r := NewRing[task]()
	for _, x := range tasks(0, 4) { // a steal takes 2 and appends 1
		r.Push(x, &inj)
	}
	if first, n := r.StealInto(dst); first != nil || n != 0 {
		t.Fatalf("StealInto a dst full by its steal head = (%v, %d), want refusal", first, n)
	}
	for i := range dn {
		if got := dst.buf[(dstart+i)&mask].Load(); got == nil || got.id != 1000+int(i) {
			t.Fatalf("slot claimed from dst overwritten: %v", got)
		}
	}
	other := NewRing[task]()
	dst.moveClaimed(dstart, dn, other, other.tail.LoadRelaxed())
	dst.release(dstart, dstart+dn)
	if first, n := r.StealInto(dst); first == nil || n != 2 {
		t.Fatalf("StealInto after dst's steal released = (%v, %d), want 2", first, n)
	}
}

func TestWrapAround(t *testing.T) {
	const start = 1<<32 - 10
	r, dst := NewRingAt[task](start), NewRingAt[task](start-3)
	var inj recorder
	for _, x := range tasks(0, 300) {
		r.Push(x, &inj)
	}
	// 256 fit, the 257th overflowed 0..127, the rest fit.
	if len(inj.batches) != 1 || !slices.Equal(ids(inj.batches[0]), seq(0, MaxSteal)) {
		t.Fatalf("overflow across the wrap: %d batches", len(inj.batches))
	}
	if tail, want := r.tail.LoadRelaxed(), uint32(300-(1<<32-start)); tail != want {
		t.Fatalf("tail = %d did not wrap", tail)
	}
	checkRing(t, r)
	first, n := r.StealInto(dst) // 172 tasks: takes 86
	if first == nil || first.id != 128 || n != 86 {
		t.Fatalf("steal across the wrap = (%v, %d)", first, n)
	}
	checkRing(t, r)
	checkRing(t, dst)
	if got := drain(dst); !slices.Equal(ids(got), seq(129, 85)) {
		t.Fatalf("dst after wrap %v", ids(got))
	}
	if got := drain(r); !slices.Equal(ids(got), seq(214, 86)) {
		t.Fatalf("victim after wrap %v", ids(got))
	}
	if r.Len() != 0 || dst.Len() != 0 {
		t.Fatal("rings not empty")
	}
}

// TestSequentialAgainstSlices drives two rings and a Global with a long
// random sequence of operations, starting just below the wrap-around, and
// compares every answer with plain slices.
func TestSequentialAgainstSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rings := []*Ring[task]{NewRingAt[task](1<<32 - 1000), NewRingAt[task](1<<32 - 77)}
	models := make([][]*task, 2)
	g := NewGlobal[task]()
	var gm []*task
	next := 0
	for step := range 200_000 {
		i := rng.IntN(2)
		r := rings[i]
		switch op := rng.IntN(10); {
		case op < 5:
			x := &task{id: next}
			next++
			full := len(models[i]) == Capacity
			got := r.Push(x, g)
			switch {
			case !full && got != 0, full && got != MaxSteal:
				t.Fatalf("step %d: Push returned %d with %d queued", step, got, len(models[i]))
			}
			if full {
				gm = append(gm, models[i][:MaxSteal]...)
				models[i] = slices.Clone(models[i][MaxSteal:])
			}
			models[i] = append(models[i], x)
		case op < 8:
			got := r.Pop()
			var want *task
			if len(models[i]) > 0 {
				want, models[i] = models[i][0], models[i][1:]
			}
			if got != want {
				t.Fatalf("step %d: Pop = %v, want %v", step, got, want)
			}
		case op < 9:
			j := 1 - i
			first, n := rings[j].StealInto(r)
			avail := len(models[j])
			want := min((avail+1)/2, MaxSteal)
			if want-1 > Capacity-len(models[i]) {
				want = 0
			}
			if n != want {
				t.Fatalf("step %d: StealInto took %d, want %d (victim %d, dst %d)", step, n, want, avail, len(models[i]))
			}
			if n > 0 {
				if first != models[j][0] {
					t.Fatalf("step %d: StealInto first = %v, want %v", step, first, models[j][0])
				}
				models[i] = append(models[i], models[j][1:n]...)
				models[j] = slices.Clone(models[j][n:])
			}
		default:
			buf := make([]*task, rng.IntN(40))
			k := g.PopBatch(buf)
			want := min(len(buf), len(gm))
			if k != want || !slices.Equal(buf[:k], gm[:k]) {
				t.Fatalf("step %d: PopBatch = %d, want %d in order", step, k, want)
			}
			gm = gm[k:]
		}
		if r.Len() != len(models[i]) || g.Len() != len(gm) {
			t.Fatalf("step %d: Len = %d/%d, want %d/%d", step, r.Len(), g.Len(), len(models[i]), len(gm))
		}
		if step%97 == 0 {
			checkRing(t, rings[0])
			checkRing(t, rings[1])
		}
	}
}

func TestMisusePanics(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", name)
			}
		}()
		f()
	}
	r := NewRing[task]()
	mustPanic("Push(nil)", func() { r.Push(nil, NewGlobal[task]()) })
	mustPanic("StealInto(self)", func() { r.StealInto(r) })
	g := NewGlobal[task]()
	mustPanic("Global.Push(nil)", func() { g.Push(nil) })
	mustPanic("Global.PushBatch with nil", func() { g.PushBatch([]*task{{}, nil}) })
	if g.Len() != 0 {
		t.Fatal("a rejected batch was partly appended")
	}
}

// A nil overflow is fine while the ring has room; on a full ring Push
// panics saying so, before anything moves (before: a nil dereference
// inside the overflow).
func TestPushFullWithNilOverflowPanicsClearly(t *testing.T) {
	r := NewRing[task]()
	for _, x := range tasks(0, Capacity) {
		if n := r.Push(x, nil); n != 0 {
			t.Fatalf("Push with room overflowed %d", n)
		}
	}
	msg := func() (msg string) {
		defer func() { msg, _ = recover().(string) }()
		r.Push(&task{id: -1}, nil)
		return ""
	}()
	if !strings.HasPrefix(msg, "queue: Push on a full ring with a nil overflow Injector") {
		t.Fatalf("Push on a full ring with a nil overflow: panic %q", msg)
	}
	if r.Len() != Capacity {
		t.Fatalf("Len = %d after the refused push, want %d", r.Len(), Capacity)
	}
	checkRing(t, r)
	if got := drain(r); !slices.Equal(ids(got), seq(0, Capacity)) {
		t.Fatalf("the ring changed: %v", ids(got))
	}
}
