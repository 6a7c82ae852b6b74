// Package rapidcases sets how many cases a rapid property draws in one
// test: fewer than rapid's default where a comparison is slow and runs
// in full elsewhere, most often under the race detector.
//
// The comparisons of searches on generated programs (the reduced search
// against brute force, a sharded search against the whole, a model
// reused against a new one) run every execution of each program two or
// more times. The race detector makes them several times slower and adds
// little: the explorer runs one goroutine of a program at a time. So go
// test -race draws a few cases, enough to run every path of the
// comparison, and cmd/verify's model layer (CI runs it) draws rapid's
// full count without the race detector. An explicit -rapid.checks is
// always obeyed.
//
// It is for tests only; nothing of the scheduler imports it.
package rapidcases
