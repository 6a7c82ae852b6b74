package engine

import (
	"fmt"

	"github.com/wsched/wsched/explore/internal/weak"
)

// What a traced run of the weak-memory mode records, so that its trace
// says which store each read read and what synchronised with what.
//
// Only a traced run (a replay, or the re-run of a failing schedule)
// records it: the search itself never pays for it. Each store, and each
// read-modify-write's store, is tied to the step that wrote it by the
// model's operation number (weak.Candidate.Seq). A read names its store by
// that step; a stale read also names the newer stores it skipped and the
// store its goroutine's view ends at, which is why it may skip them (no
// newer store happens before the read).
//
// Synchronises-with edges, as C11 defines them for atomics and fences: a
// store carries the releases it publishes (its own, if it is a release;
// else its goroutine's last release fence, if any; plus, for a
// read-modify-write, those of the store it read: a release sequence); an
// acquire read of it synchronises with each of them, and a relaxed read
// hands them to its goroutine's next acquire fence. The edges of locks,
// channels, goroutine starts and joins are not drawn.
//
// A read of another goroutine's store that synchronises with nothing
// although one side asked to is a missing synchronises-with edge, which
// the trace names: an acquire read of a store that carries no release
// (a relaxed store, with no release fence before it), and a relaxed read
// of a release store that no acquire fence of its goroutine follows.
// A plain cell's access records its step too, so that a data race names
// both accesses' steps.

// weakTrace is a traced run's record of stores and pending releases.
type weakTrace struct {
	stores map[int]storeInfo // by the model's operation number
	fenced map[int]int       // per goroutine: the step of its last release fence
	// relaxed holds, per goroutine, the releases carried by the stores it
	// read with relaxed reads, for its next acquire fence.
	relaxed map[int][]ref
	next    map[int]*weakStep // per goroutine: its coming step's record
	// unfenced holds, per goroutine, its relaxed reads of release stores
	// that no acquire fence has followed yet.
	unfenced map[int][]*weakStep
	// cells maps a plain cell access's operation number in the model to
	// its step.
	cells map[int]int
	// sc maps a seq_cst event of the model to its step (noteSC).
	sc map[weak.SCEvent]int
}

// ref is a step and its goroutine; step 0 is a location's first value.
type ref struct{ Step, G int }

type storeInfo struct {
	at  ref
	rel []ref // the releases the store carries
}

// weakStep is what the weak mode says of one step.
type weakStep struct {
	read    bool
	from    ref   // the store read
	fromSeq int   // its operation number in the model (0: the first value)
	stale   bool  // not the latest
	skipped []ref // newer stores not read
	why     string
	sw      []ref // releases this step synchronises with
	// before is how many newer stores in modification order a store
	// was placed before (0: it went last).
	before int
	// noRelease: an acquire read of another goroutine's store that
	// carries no release; noAcquire: a relaxed read of another
	// goroutine's release store that no acquire fence followed.
	noRelease, noAcquire bool
	// race is the step of the other access of a data race (0: none).
	race int
}

func newWeakTrace() *weakTrace {
	return &weakTrace{stores: map[int]storeInfo{}, fenced: map[int]int{}, relaxed: map[int][]ref{}, next: map[int]*weakStep{},
		unfenced: map[int][]*weakStep{}, cells: map[int]int{}, sc: map[weak.SCEvent]int{}}
}

// take hands the record of goroutine g's coming step to that step.
func (w *weakTrace) take(g int) *weakStep {
	s := w.next[g]
	delete(w.next, g)
	return s
}

func (w *weakTrace) step(g int) *weakStep {
	s := w.next[g]
	if s == nil {
		s = &weakStep{}
		w.next[g] = s
	}
	return s
}

func (w *weakTrace) refOf(c weak.Candidate) ref {
	if c.Writer < 0 {
		return ref{0, -1}
	}
	return w.stores[c.Seq].at
}

func acquires(o Ordering) bool { return o == Acquire || o == AcqRel || o == SeqCst }
func releases(o Ordering) bool { return o == Release || o == AcqRel || o == SeqCst }

// read records that the running goroutine's coming step reads cands[pick]
// of location l with ordering o.
func (w *weakTrace) read(r *run, l weak.Loc, o Ordering, cands []weak.Candidate, pick int) *weakStep {
	g := r.cur.id
	s := w.step(g)
	c := cands[pick]
	s.read, s.from, s.stale = true, w.refOf(c), c.Age > 0
	if c.Writer >= 0 {
		s.fromSeq = c.Seq
	}
	if s.stale {
		for _, x := range cands[:pick] {
			s.skipped = append(s.skipped, w.refOf(x))
		}
		view := "its view of the location is only the first value"
		if k, ok := r.mem.m.Known(r.thread(), l, o); ok && k.Writer >= 0 {
			view = "its view of the location ends at " + r.refName(w.refOf(k))
		} else if !ok {
			view = "its view of the location ends at a store the history has forgotten"
		}
		s.why = fmt.Sprintf("no newer store happens before this read (%s)", view)
	}
	var carried []ref
	if c.Writer >= 0 {
		carried = w.stores[c.Seq].rel
	}
	others := 0
	for _, x := range carried {
		if x.G == g {
			continue // its own release: program order, not a synchronisation
		}
		others++
		if acquires(o) {
			s.sw = appendRef(s.sw, x)
		} else {
			w.relaxed[g] = appendRef(w.relaxed[g], x)
		}
	}
	if c.Writer >= 0 && s.from.G != g && s.from.Step > 0 {
		switch {
		case acquires(o) && others == 0:
			s.noRelease = true
		case !acquires(o) && others > 0:
			s.noAcquire = true
			w.unfenced[g] = append(w.unfenced[g], s)
		}
	}
	return s
}

// wrote records the store the running goroutine's coming step wrote with
// ordering o; rd is the read of a read-modify-write (nil for a store).
func (w *weakTrace) wrote(r *run, o Ordering, rd *weakStep) {
	g := r.cur.id
	at := ref{r.numbered + 1, g}
	var rel []ref
	switch {
	case releases(o):
		rel = []ref{at}
	case w.fenced[g] > 0:
		rel = []ref{{w.fenced[g], g}}
	}
	if rd != nil && rd.fromSeq > 0 {
		for _, x := range w.stores[rd.fromSeq].rel {
			rel = appendRef(rel, x)
		}
	}
	w.stores[r.mem.m.Events()] = storeInfo{at: at, rel: rel}
}

// placed records that the store of the running goroutine's coming step
// went before the newest n stores of its location in modification order.
func (w *weakTrace) placed(r *run, n int) {
	if n > 0 {
		w.step(r.cur.id).before = n
	}
}

// fence records the running goroutine's fence of ordering o.
func (w *weakTrace) fence(r *run, o Ordering) {
	g := r.cur.id
	if acquires(o) {
		s := w.step(g)
		for _, x := range w.relaxed[g] {
			s.sw = appendRef(s.sw, x)
		}
		delete(w.relaxed, g)
		for _, rd := range w.unfenced[g] {
			rd.noAcquire = false // the fence acquires what it read
		}
		delete(w.unfenced, g)
	}
	if releases(o) {
		w.fenced[g] = r.numbered + 1
	}
}

func appendRef(rs []ref, x ref) []ref {
	for _, y := range rs {
		if y == x {
			return rs
		}
	}
	return append(rs, x)
}

// refName says which store a ref is: "step 12 (thief)".
func (r *run) refName(x ref) string {
	if x.Step == 0 {
		return "the first value"
	}
	return fmt.Sprintf("step %d (%s)", x.Step, r.threads[x.G].name)
}
