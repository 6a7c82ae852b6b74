package main

// The workloads and peers as the report explains them. The benchmarks themselves are in the
// bench package; keep these sentences in step with its doc comment.

type described struct{ Name, Text string }

var workloadDocs = []described{
	{"SpawnManyLocal", "From inside one task, spawn 10,000 tasks that each decrement a counter; the last one signals the benchmark. A task is one spawned task."},
	{"SpawnManyRemoteIdle", "From the benchmark goroutine (outside the runtime), spawn 10,000 empty tasks keeping their handles, then wait for each handle. A task is one spawned task."},
	{"SpawnManyRemoteBusy", "The same, while 8 background tasks loop: 10 µs of work, then a yield. A task is one of the 10,000 spawned tasks."},
	{"YieldMany", "200 tasks spawned from outside, each yielding 1,000 times. A task is one yield (200,000 per iteration)."},
	{"PingPong", "One task spawns 1,000 pings. Each ping spawns a pong, signals it through a one-shot and waits for the pong's answer on a second one-shot; the last ping to finish signals the benchmark. A task is one of the 2,000 pings and pongs."},
	{"ChainedSpawn", "A chain of 1,000 tasks, each spawning the next; the last one signals. A task is one link."},
	{"ForkJoinFib", "Fibonacci of 20 computed by forking both branches at every level, with no sequential cut-off, so the cost is that of the forks and joins. A task is one fork (10,945 per iteration); the sequential row is the same recursion without forking."},
	{"IdleCPU", "CPU seconds the process uses per wall second while the peer is idle, and while one empty task is spawned into it from outside every 1 ms or every 100 µs (shown in [What users feel](#what-users-feel), not in ns/task)."},
	{"WakeLatency", "Time from a spawn from outside, or a Wake from outside of a waiting task, into a peer left idle for 200 µs, to the start of the task's run; p50 and p99 over the run's samples (shown in [What users feel](#what-users-feel))."},
	{"QueuePushPop", "The owner's side of a run queue, with no thief: 128 pushes then 128 pops on one goroutine. A task is one push plus one pop."},
}

var peerDocs = []described{
	{"goroutines", "Plain Go: one goroutine per task, channels for handles and one-shots, sync.WaitGroup for joins, runtime.Gosched for a yield. It takes no worker count: GOMAXPROCS decides."},
	{"pond", "github.com/alitto/pond/v2 with 4 workers and its unbounded queue."},
	{"ants", "github.com/panjf2000/ants/v2 with a capacity of 4096. ants has no queue (a submit blocks until a worker is free), so at a capacity of 4 the pool deadlocks as soon as four tasks submit at once (SpawnManyRemoteBusy, YieldMany and PingPong do); 4096 is above the number of submitting tasks any workload has in flight, so this row runs with up to 4096 goroutines, not 4."},
	{"workerpool", "github.com/gammazero/workerpool with 4 workers; its submit never blocks."},
	{"spec", "spec/sched, the lock-based reference scheduler (one mutex, one FIFO queue, a condition variable), with 4 workers. In QueuePushPop: spec/queue, a mutex and a slice."},
	{"impl-channel", "impl/sched, the work-stealing scheduler, with 4 workers, the default configuration and the channel parker."},
	{"impl-futex", "impl/sched with the futex parker (Linux only)."},
	{"impl-norescue", "impl/sched as impl-channel with the rescue of stranded tasks off (LongPoll < 0): the monitor only fires timers."},
	{"sequential", "ForkJoinFib only: the recursion with no fork."},
	{"forkjoin", "ForkJoinFib only: impl/forkjoin, a Chase-Lev deque per worker, with 4 workers and its default configuration."},
	{"impl", "QueuePushPop only: impl/queue's lock-free ring."},
	{"chan", "QueuePushPop only: a buffered channel with the ring's capacity (256)."},
}

const poolNote = "Pools have no pending task: a yield is a resubmit of the rest of the task, and waiting on a one-shot leaves a continuation that the sender submits."
