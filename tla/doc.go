// Package tla holds the TLA+ specifications of the scheduler's two lock-free
// protocols and of its answer to blocking polls, and the Go test that runs
// the TLC model checker over every configuration.
//
// ThreePhaseSteal.tla models the per-worker ring of impl/queue: owner Push
// (with overflow to the global queue), owner Pop, and the three-phase
// StealInto, with two thieves so that steals chain. IdleProtocol.tla models
// the idle protocol of impl/idle and impl/sched: searching and parked
// workers, the num_searching and num_parked counters, the parked bitmap, the
// notify rule and the final check before sleeping. Stranding.tla models the
// design that keeps a task from waiting behind a poll that never returns:
// where queued tasks are and who may take them, the monitor, extra workers
// and the busy worker's fairness turn; its property is liveness (every task
// runs), under weak fairness of every goroutine's steps.
//
// Each .cfg file is one model: either the algorithm we implement (TLC must
// find no error) or the same algorithm with one mechanism switched back to
// the way the original design documents write it, or with one rule broken
// (TLC must find the error). expectations.tsv records, for every
// configuration, the TLC exit code and the number of distinct states; the
// test fails when an outcome differs, in particular when a configuration
// that must fail passes (the check has no teeth).
//
// Running it needs Java 17 and tla2tools.jar (TLC 2.20):
//
//	TLA2TOOLS_JAR=/path/to/tla2tools.jar go test ./tla -v
//	TLA2TOOLS_JAR=/path/to/tla2tools.jar go test ./tla -run TestTLC/IdleFixed -v
//
// Without TLA2TOOLS_JAR the model-checking test is skipped and says loudly
// that the TLC layer did not run; only the consistency test between the
// table and the .cfg files runs. docs/tla.md explains each model, how each
// action maps to the Go code, and how to read a counterexample.
//
// This package contains no production code and is not imported by anything.
package tla
