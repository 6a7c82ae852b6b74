package scenarioset

import "slices"

// Package is one package of TestExplore scenarios.
type Package struct {
	Dir string // ./-relative to the module root
	// Layers are the cmd/verify layers whose go test command lists the
	// package: "explore" (-tags explore) and "weak" (-tags explore,weak).
	Layers []string
	// Orders are the impl/ packages (by last element: "queue") whose
	// atomic operations its weak-mode scenarios execute, for
	// cmd/orderaudit. A package may reach more than it is listed for:
	// the fork-join pool's scenarios run the deque, whose orderings are
	// audited with the deque's own scenarios.
	Orders []string
}

// Packages is the list, in the order the layers' commands name them and
// cmd/orderaudit picks a failure from (the futex parker's own scenarios
// before the runtime's that use it).
var Packages = []Package{
	// The scenarios of the whole runtime and of its parts.
	{Dir: "./explore/scenarios", Layers: []string{"explore", "weak"}, Orders: []string{"deque", "queue", "idle", "sched"}},
	// The futex parker.
	{Dir: "./impl/park", Layers: []string{"explore", "weak"}, Orders: []string{"park"}},
	// The task state machine and the runtime's protocols played alone.
	{Dir: "./impl/sched", Layers: []string{"explore", "weak"}, Orders: []string{"idle", "sched", "park"}},
	// The fork-join pool's protocols played alone.
	{Dir: "./impl/forkjoin", Layers: []string{"explore", "weak"}, Orders: []string{"forkjoin"}},
	// The goroutine numbers the explorer hands out: the explorer's own
	// bookkeeping, with no atomic ordering to check in the weak mode.
	{Dir: "./internal/goid", Layers: []string{"explore"}},
}

// Dirs returns the packages layer runs, in the list's order.
func Dirs(layer string) []string {
	var out []string
	for _, p := range Packages {
		if slices.Contains(p.Layers, layer) {
			out = append(out, p.Dir)
		}
	}
	return out
}

// Reaching returns the packages whose weak-mode scenarios cmd/orderaudit
// runs for the operations of impl/pkg, in the list's order.
func Reaching(pkg string) []string {
	var out []string
	for _, p := range Packages {
		if slices.Contains(p.Orders, pkg) {
			out = append(out, p.Dir)
		}
	}
	return out
}
