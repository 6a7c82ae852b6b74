package explore

import "github.com/wsched/wsched/explore/internal/engine"

// Explore runs body under many schedules, as opt says, and returns what it
// found. body runs as the goroutine "main"; everything it starts with Go
// (or through instrumented code) is explored with it. body must leave
// nothing running: a goroutine still blocked when the others are done is a
// deadlock. Explore runs one exploration at a time (it is not reentrant)
// and sets GOMAXPROCS to 1 while it runs, since one goroutine runs at a
// time anyway and handoffs are cheapest on one P.
//
// A test calls Check, which adds the environment's settings, the log and
// the run record; Explore is for code that looks at the result itself.
func Explore(opt Options, body func()) Result {
	return engine.Explore(opt, body)
}

// Classes runs body under opt, as Explore does, and returns the
// Mazurkiewicz trace of every run (its normal form: goroutines A, B, ...
// in the order that runs, at each point, the lowest-lettered one whose
// next step has every step it depends on done) that the sleep set did not
// stop, with how many runs reached it. It is for checking the reduced
// search against the plain one: every trace that the plain search reaches
// within a bound, the reduced search must reach within that bound.
//
// It refuses the weak-memory mode (Options.Weak) with an error, running
// nothing: there an execution is also which store each load read, which a
// trace does not name.
func Classes(opt Options, body func()) (map[string]int, Result, error) {
	return engine.Classes(opt, body)
}
