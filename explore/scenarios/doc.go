// Package scenarios holds the explorer's scenarios: small runs of impl/'s
// production code, each explored under every interleaving up to a
// preemption bound (package explore). They are tests built only with the
// explore tag, which makes impl/'s atomics, locks, channel waits and clock
// scheduling points:
//
//	go test -tags explore ./explore/scenarios
//
// Each scenario asserts what must hold in every schedule: every task taken
// exactly once and none lost, no deadlock (with park timeouts off, a lost
// wakeup is a deadlock), and, where it fits, agreement with the sequential
// models of model/. docs/auditing.md says how to write one and how to read
// a failure.
package scenarios
