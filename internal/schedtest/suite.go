package schedtest

import (
	"fmt"
	"testing"
)

// Sizes are the worker counts the sized checks run with: one worker (every
// interleaving is a queue order), two (the machine's core count in CI) and
// more workers than cores.
var Sizes = []int{1, 2, 8}

// sized checks run once per entry of Sizes, each on a fresh runtime.
var sized = []struct {
	name string
	fn   func(e *env)
}{
	{"ExactlyOnceFromOutside", checkExactlyOnceFromOutside},
	{"ExactlyOnceTree", checkExactlyOnceTree},
	{"ExactlyOnceGo", checkExactlyOnceGo},
	{"WakeDuringPollSelf", func(e *env) { checkWakeDuringPoll(e, wakeSelf) }},
	{"WakeDuringPollCtx", func(e *env) { checkWakeDuringPoll(e, wakeSelfCtx) }},
	{"WakeDuringPollOther", func(e *env) { checkWakeDuringPoll(e, wakeFromGoroutine) }},
	{"WakeAfterCompletion", checkWakeAfterCompletion},
	{"ConcurrentWakes", checkConcurrentWakes},
	{"Yield", checkYield},
	{"Sleep", checkSleep},
	{"Panic", checkPanic},
	{"Goexit", checkGoexit},
	{"ShutdownCancelsReady", func(e *env) { checkShutdownCancels(e, true) }},
	{"ShutdownCancelsPending", func(e *env) { checkShutdownCancels(e, false) }},
	{"ShutdownCancelsOrRunsReady", func(e *env) { checkShutdownCancels(e, true) }},
	{"ShutdownCancelsOrRunsPending", func(e *env) { checkShutdownCancels(e, false) }},
	{"ShutdownConcurrent", checkShutdownConcurrent},
	{"BlockedPollBatchMate", checkBlockedPollBatchMate},
	{"BlockedPollChild", checkBlockedPollChild},
	{"BlockedPollWake", checkBlockedPollWake},
	{"Rendezvous", checkRendezvous},
}

// unhelped names the sized checks whose premise is a task queued behind a
// blocked poll staying there: they run with the monitor's help off. Their
// "OrRuns" twins run the same check with the help on, where such a task
// may run instead of being cancelled, exactly once.
var unhelped = map[string]bool{"ShutdownCancelsReady": true, "ShutdownCancelsPending": true}

// single checks run once, on a runtime with two workers where they need one.
var single = []struct {
	name string
	fn   func(t *testing.T, impl Impl)
}{
	{"InvalidConfig", checkInvalidConfig},
	{"NilTask", checkNilTask},
	{"AfterShutdown", checkAfterShutdown},
	{"WaitContext", checkWaitContext},
	{"NegativeSleep", checkNegativeSleep},
	{"ZeroWaker", checkZeroWaker},
	{"CrossRuntimeWake", checkCrossRuntimeWake},
	{"NewShutdownNoLeak", checkNewShutdownNoLeak},
	{"ContextAfterPoll", checkContextAfterPoll},
	{"NilContext", checkNilContext},
	{"ShutdownInsideTask", checkShutdownInsideTask},
	{"ShutdownCancelledIdle", checkShutdownCancelledIdle},
	{"ShutdownWithBlockedPoll", func(t *testing.T, impl Impl) { checkShutdownWithBlockedPoll(startUnhelped(t, impl, 1)) }},
	{"ShutdownWithBlockedPollHelped", func(t *testing.T, impl Impl) { checkShutdownWithBlockedPoll(start(t, impl, 1)) }},
}

// Run runs the whole suite against impl. Checks run one after another (the
// goroutine-leak check needs a quiet process).
func Run(t *testing.T, impl Impl) {
	for _, c := range single {
		t.Run(c.name, func(t *testing.T) { c.fn(t, impl) })
	}
	for _, c := range sized {
		for _, w := range Sizes {
			t.Run(fmt.Sprintf("%s/workers=%d", c.name, w), func(t *testing.T) {
				if unhelped[c.name] {
					c.fn(startUnhelped(t, impl, w))
				} else {
					c.fn(start(t, impl, w))
				}
			})
		}
	}
}
