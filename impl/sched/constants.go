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
	// worker does its maintenance (worker 0 polls the timers, the LIFO
	// counter resets, the global-queue interval is re-tuned). 128 is
	// Tokio's and the seeds' value: large enough that maintenance is
	// amortised, small enough that a timer is late by at most 128 polls.
	budgetPerTick = 128

	// maxLIFOPollsPerTick caps how many tasks a tick may take from the
	// LIFO slot. Two tasks waking each other through the slot would
	// otherwise run forever while the ring starves; after the cap the
	// slot is flushed to the back of the ring. 3 as in the seeds.
	maxLIFOPollsPerTick = 3

	// globalBatchMin and globalBatchMax bound the adaptive size of one
	// take from the global queue: a fair share, len(global)/workers,
	// clamped to [4, 64]. At least 4 so that one lock pays for several
	// tasks; at most 64 so that one worker does not hoard the queue.
	globalBatchMin = 4
	globalBatchMax = 64

	// globalBufferSize is the worker's private prefetch buffer. Of a
	// batch of n (4..64), the first task runs at once, the next up to 32
	// wait in this buffer (taken first, without any atomic, by the next
	// findWork calls), and the rest (up to 31) go to the back of the
	// ring, where idle workers can steal them. The buffer is what the
	// seeds call "32-task buffer"; pushing the tail of a large batch to
	// the ring instead of a bigger buffer keeps it stealable.
	globalBufferSize = 32

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
