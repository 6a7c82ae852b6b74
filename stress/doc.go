// Package stress is the stress suite for the production code in impl/: the
// real data structures and the scheduler under heavy concurrent load, with
// properties checked at the end (every task taken exactly once, queues
// empty, order kept where the design promises it).
//
// Run it with the race detector:
//
//	go test -race ./stress
//
// Add -tags chaos to compile in the yield points of impl/internal/chaos,
// which widen the windows between each load and the CAS that depends on it:
//
//	go test -race -tags chaos ./stress
//
// The default run is sized to finish in well under a minute on two cores.
// WSCHED_LONG=1 runs the same tests with many more tasks.
//
// This package holds no benchmarks and no timing assertions; a test here
// fails only on a broken property or a hang.
package stress
