// Package bench compares the wsched runtime with other ways of running many small tasks in Go.
//
// It is a separate module so that the peers it measures (pond, ants, workerpool, and the
// statistics package used by the report) never become dependencies of the main module.
// Everything lives in one test binary, so every comparison in a report comes from the same run
// on the same machine.
//
// The scheduler workloads follow Tokio's benches/rt_multi_threaded.rs, with four workers
// wherever a peer takes a size:
//
//   - SpawnManyLocal: from inside one task, spawn 10,000 tasks that each decrement a counter;
//     the last one signals.
//   - SpawnManyRemoteIdle: from outside the runtime, spawn 10,000 empty tasks keeping their
//     handles, then wait for each handle.
//   - SpawnManyRemoteBusy: the same while 8 background tasks loop: 10 us of work, then yield.
//   - YieldMany: 200 tasks, each yielding 1,000 times.
//   - PingPong: 1,000 pings; each ping spawns a pong, wakes it through a one-shot, and is woken
//     back through a second one-shot (2 spawns and 2 wakes per ping).
//   - ChainedSpawn: a chain of 1,000 tasks, each spawning the next.
//
// Besides those, ForkJoinFib measures fork-join overhead (a naive Fibonacci with no cut-off)
// and Queue measures the run queue's push and pop against a buffered channel.
//
// What a user feels besides throughput (feel_test.go): IdleCPU measures the CPU seconds the
// process uses per wall second while a peer is idle and while it gets one task per 1 ms or per
// 100 us from outside (units cpu-s/s, tasks/s); WakeLatency measures the time from a spawn, or
// a Wake, into an idle peer to the start of the task's run (p50-ns, p99-ns over the run's
// samples). Sub-benchmarks are Benchmark<Workload>/<case>/peer=<peer>.
//
// Every other benchmark reports ns/task (elapsed time divided by the tasks, yields or operations one
// iteration performs), tasks/op (that divisor) and allocations. Sub-benchmarks are named
// Benchmark<Workload>/peer=<peer>, so `benchstat -col /peer` lays the peers side by side.
//
// Pool peers have no notion of a pending task: a yield is expressed as resubmitting the rest of
// the task as a new submission, and waiting on a one-shot as registering a continuation that
// the sender submits.
//
// This package is not a test suite: the benchmarks check only what they need to finish.
//
//go:generate go run ./cmd/gensched
package bench
