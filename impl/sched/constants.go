package sched

import (
	"time"

	"github.com/wsched/wsched/impl/queue"
)

// Every tuning constant of the scheduler, with the reason for its value.
// The ring size (queue.Capacity = 256), the steal cap and the overflow size
// (queue.MaxSteal = 128) live in impl/queue, next to the ring they shape.
const (
	// budgetPerTick is how many task polls one tick may run before the
	// worker does its maintenance (it polls the timers, the LIFO counter
	// resets, the global-queue interval is re-tuned). 128 is Tokio's and
	// the seeds' value: large enough that maintenance is amortised, small
	// enough that a timer is late by at most 128 polls.
	budgetPerTick = 128

	// maxLIFOPollsPerTick caps how many tasks a tick may take from the
	// LIFO slot. Two tasks waking each other through the slot would
	// otherwise run forever while the ring starves; after the cap the
	// slot is flushed to the back of the ring. 3 as in the seeds.
	maxLIFOPollsPerTick = 3

	// globalBatchMin and globalBatchMax bound the adaptive size of one
	// take from the global queue: a fair share, len(global)/workers,
	// clamped to [4, 64]. At least 4 so that one lock pays for several
	// tasks; at most 64 so that one worker does not hoard the queue. Of a
	// batch the first task runs at once and the rest go to the back of the
	// ring, where idle workers can steal them. (The seeds keep up to 32 in
	// a private prefetch buffer; a task there waits for its worker's
	// current poll, however long: docs/scheduler.md, "Stranding".)
	globalBatchMin = 4
	globalBatchMax = 64

	// ewmaAlpha is the weight of the newest sample in the moving average
	// of the time one poll takes. 0.1 as in the seeds: an outlier moves
	// the average by a tenth, ~20 ticks adapt it to a new regime.
	ewmaAlpha = 0.1

	// targetGlobalLatency is how long a task may wait in the global queue
	// while its worker runs local tasks: the fairness interval is
	// targetGlobalLatency / average poll time, in polls.
	targetGlobalLatency = time.Millisecond

	// minGlobalInterval and maxGlobalInterval clamp that interval. At
	// least 8: with slow tasks the global queue is still not taken on
	// every poll (a lock per poll). At most 255: with very fast tasks the
	// global queue is still looked at every 255 polls. Seeds' values.
	minGlobalInterval = 8
	maxGlobalInterval = 255

	// initialAvgPoll is the average poll time assumed before any sample:
	// 50 us, giving a first interval of 1 ms / 50 us = 20 polls.
	initialAvgPoll = 50 * time.Microsecond

	// defaultLongPoll is Config.LongPoll's default: a worker whose tick
	// has not ended for this long, while tasks wait behind it, gets help
	// from the monitor (a parked worker is woken, or an extra worker is
	// started). 1 ms is the latency the global queue's fairness interval
	// aims at (targetGlobalLatency): a worker holding its tasks for
	// longer breaks that promise for them. It is also 10 to 100 times the
	// time Tokio advises between two awaits, so a healthy tick of 128
	// polls rarely lasts it; when one does, the help is a worker stealing
	// what waited, which costs little. The monitor looks every half of it
	// (monitorPeriod), so a blocked poll's batch-mates wait 1 to 1.5 ms.
	defaultLongPoll = time.Millisecond

	// defaultExtraWorkers is Config.ExtraWorkers' default: the most extra
	// worker goroutines running at once while workers are stuck in long
	// polls. Go runs blocked goroutines without a limit but that of
	// threads (10,000); an extra worker is a goroutine and a 256-slot
	// ring (3 KiB), started only when every worker is stuck with tasks
	// waiting and gone when it finds no work. 256 lets that many polls
	// block at once (a rendezvous of 256 tasks) before queued tasks wait
	// for one of them to return.
	defaultExtraWorkers = 256

	// quietBatch is the largest rest of a global batch that goes to the
	// ring without a notify. A small rest is work this worker gets through
	// in a few microseconds; waking a parked worker for it mostly buys an
	// empty wake (spawn_many_remote_idle: +2% with a notify per batch,
	// eight alternating runs). It is what the private prefetch buffer held
	// unannounced before, with one difference: the rest is in the ring, so
	// a searching worker can steal it, and should this worker's poll not
	// return, the monitor wakes a parked worker for it (docs/scheduler.md,
	// "Stranding"). A larger rest is announced at once.
	quietBatch = 32

	// progressPolls is how often, in polls, a worker counts progress for
	// the monitor within a tick (besides at its start): one atomic add per
	// 16 polls. A worker is stuck when its count does not move for
	// LongPoll: one poll, or 16 in a row, took that long (62 us each on
	// average at the default). Counting per tick only, 128 polls under the
	// race detector outlast 1 ms and a busy worker looked stuck; counting
	// every poll would add a locked instruction to each. A power of two.
	progressPolls = 16

	// maxExtraWorkers bounds Config.ExtraWorkers.
	maxExtraWorkers = 10_000

	// defaultParkTimeout is DefaultConfig's ParkTimeout. A parked worker
	// wakes after 10 ms even if nobody unparks it, a safety net against a
	// lost wakeup in production. Tests switch it off (0) so that a lost
	// wakeup is a hang, not a 10 ms hiccup.
	defaultParkTimeout = 10 * time.Millisecond

	// maxWorkers is the width of the parked bitmap.
	maxWorkers = 64
)

// ringCapacity is the ring size, for the batch sizing in pollGlobal.
const ringCapacity = queue.Capacity
