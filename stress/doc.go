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
// The default run is sized to finish in about a minute on two cores. These
// environment variables change that:
//
//	WSCHED_LONG=1              every test with about 8x more tasks
//	WSCHED_STRESS_SCALE=n      the scheduler scenarios with n times the tasks
//	WSCHED_STRESS_DURATION=d   TestSchedSoak repeats every scheduler scenario
//	                           until d (e.g. 10m) has passed, one progress line
//	                           per round (needs -v to show, -timeout 0 to last)
//	WSCHED_WATCHDOG=d          how long a scenario may make no progress before
//	                           it fails with a dump of every worker's state
//	                           (default: a minute per unit of the scale)
//
// For example, a ten-minute soak with chaos:
//
//	WSCHED_STRESS_DURATION=10m go test -race -tags chaos -v -timeout 0 -run TestSchedSoak ./stress
//
// This package holds no benchmarks and no timing assertions; a test here
// fails only on a broken property or a hang.
package stress
