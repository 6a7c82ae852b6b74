//go:build explore

package scenarios

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/model"
)

// The task state machine's clients: main is the worker, the other threads
// are wakers or Waits, on one task record (sched.TaskMachine: the runtime's
// own transitions). Each is a client of the task object of model/task.go,
// which also holds a wake's promise: the poll that starts after a wake sees
// what the waker wrote before it (each waker adds one message before its
// wake, and a poll's start reads the count; in the weak-memory mode both
// relaxed, so that only the state word's own orderings make a message
// visible: taskMessages).
//
// The variants (the clients' "prefill"):
//
//   - 0, wakers: the task is born scheduled, in the worker's queue; each
//     other thread wakes it, and a wake that says so enqueues it in a
//     stand-in queue (a release add, which the worker's take acquires, as
//     every queue of the runtime hands a task over).
//   - 1, wakers-idle: the same, the task idle at the start (a poll returned
//     Pending), so only a wake brings it to the worker.
//   - 2, readers: the task is born scheduled; each other thread reads its
//     outcome (Wait's result) while the worker polls it to its end.
//
// The worker's word, a letter per poll: p (the poll returns Pending), y
// (Yield), r (Ready), x (it panics: the readers' clients only, where the
// outcome is read), c (shutdown: cancel); r, x and c only last, as a
// letter after them would find the task final. A poll needs the task in
// hand: kept from a requeue, or taken from the stand-in queue; without it
// the letter does nothing. After c the worker is shut down: a later look
// into the queue is the drain, which cancels a task it finds there. After
// the joins the worker polls the task once more if it is queued (so that
// every wake's message is looked for), then reads the outcome.
//
// N: under sequential consistency the worker up to 3 letters and the
// other thread up to 2 calls with two threads, the worker 2 letters and
// each other thread 1 call with three; in the weak-memory mode 2 and 2
// with two threads, 1 and 1 with three (2 letters with three threads
// there is more than 200,000 executions for one client).
func TestExploreLinTask(t *testing.T) {
	n := linN{owner2: 3, thief2: 2, owner3: 2, thief3: 1}
	if explore.WeakMode() {
		n = linN{owner2: 2, thief2: 2, owner3: 1, thief3: 1}
	}
	var clients []linClient
	for variant, alphabet := range [...]string{"pyrc", "pyrc", "yrxc"} {
		for _, sh := range n.shapes(alphabet) {
			if !strings.ContainsAny(sh.owner[:len(sh.owner)-1], "rxc") {
				clients = append(clients, taskClient(variant, sh.owner, sh.thieves))
			}
		}
	}
	runLin(t, "task", clients)
}

var taskVariants = [...]string{"wakers", "wakers-idle", "readers"}

func taskClient(variant int, worker string, others []int) linClient {
	name := fmt.Sprintf("%s/worker-%s/others%s", taskVariants[variant], worker, countsName(others))
	body := func() {
		h := &linHistory[model.TaskObject]{}
		m := sched.NewTaskMachine(variant == 1)
		var queued atomic.Int32
		msgs := taskMessages{weak: explore.WeakMode()}
		call := func(thread int, op model.TaskOp, do func(*model.TaskOp)) model.TaskOp {
			c := h.begin(thread)
			do(&op)
			h.end(c, op.String, func(s model.TaskObject) (bool, model.TaskObject) { return s.Step(op) })
			return op
		}
		wake := func(thread int) {
			msgs.send() // the waker's write, before its wake
			if call(thread, model.TaskOp{Kind: model.TaskOpWake}, func(op *model.TaskOp) { op.Enqueue = m.Wake() }).Enqueue {
				queued.AddRelease(1)
			}
		}
		read := func(thread int) {
			call(thread, model.TaskOp{Kind: model.TaskOpResult}, func(op *model.TaskOp) {
				err, final := m.Result()
				var pe *sched.PanicError
				switch {
				case !final:
					op.Outcome = model.TaskNotFinal
				case err == nil:
					op.Outcome = model.TaskOutReady
				case errors.As(err, &pe):
					op.Outcome = model.TaskOutPanicked
				case errors.Is(err, sched.ErrCancelled):
					op.Outcome = model.TaskOutCancelled
				default:
					explore.Failf("Result: %v", err)
				}
			})
		}
		held, shut, broken := variant != 1, false, false
		take := func() {
			if !held && queued.LoadAcquire() > 0 {
				queued.AddRelaxed(-1) // only the worker takes
				held = true
			}
		}
		// poll starts a poll of the task in hand. A start the runtime
		// refuses (its panic: the task was not scheduled, though the
		// worker took it from a queue) is a call no state of the model
		// allows; the worker stops there.
		poll := func() bool {
			held = false
			c := h.begin(0)
			if err := m.Start(); err != nil {
				h.end(c, func() string { return "Start() -> " + err.Error() }, func(s model.TaskObject) (bool, model.TaskObject) { return false, s })
				broken = true
				return false
			}
			op := model.TaskOp{Kind: model.TaskOpStart, Seen: msgs.seen()}
			h.end(c, op.String, func(s model.TaskObject) (bool, model.TaskObject) { return s.Step(op) })
			return true
		}
		endPending := func(yielded bool) {
			held = call(0, model.TaskOp{Kind: model.TaskOpEndPending, Yielded: yielded}, func(op *model.TaskOp) {
				op.Requeue = m.EndPending(yielded)
			}).Requeue
		}
		cancel := func() {
			call(0, model.TaskOp{Kind: model.TaskOpCancel}, func(op *model.TaskOp) { op.Cancelled = m.Cancel() })
		}
		var join func()
		if variant == 2 {
			join = startThieves(others, read)
		} else {
			join = startThieves(others, wake)
		}
		for _, letter := range worker {
			if broken {
				break
			}
			take()
			if letter == 'c' || shut {
				// Shutdown. The first c cancels the task wherever it
				// is (a drain that took it, or a Wait after the
				// workers exited); later letters are the drain,
				// which cancels what it finds in the queue.
				if held || !shut {
					cancel()
				}
				shut, held = true, false
				continue
			}
			if !held || !poll() {
				continue
			}
			switch letter {
			case 'p':
				endPending(false)
			case 'y':
				endPending(true)
			case 'r', 'x':
				call(0, model.TaskOp{Kind: model.TaskOpFinish, Panicked: letter == 'x'}, func(*model.TaskOp) { m.Finish(letter == 'x') })
			}
		}
		join()
		if !broken {
			if take(); held {
				if shut {
					cancel()
				} else if poll() {
					endPending(false)
				}
			}
		}
		read(0)
		h.check(name, model.TaskObject{Status: initialStatus(variant)}, model.TaskObject.String, model.TaskObject.String)
	}
	return linClient{name: name, calls: len(worker) + sum(others), body: body}
}

func initialStatus(variant int) model.TaskStatus {
	if variant == 1 {
		return model.TaskIdle
	}
	return model.TaskScheduled
}

// taskMessages counts the wakers' messages. In the weak-memory mode with
// relaxed atomics: only the state word's orderings make a message visible
// to the poll that follows its wake. Under sequential consistency a plain
// count, no scheduling point (every write is visible at once there, and a
// wake's message is written before the wake acts on the state, so a poll
// after the wake sees it whatever the state machine does: there a message
// shows no bug, and atomics would only multiply the executions).
type taskMessages struct {
	weak  bool
	count atomic.Int32
	plain int
}

func (m *taskMessages) send() {
	if m.weak {
		m.count.AddRelaxed(1)
	} else {
		m.plain++
	}
}

func (m *taskMessages) seen() int {
	if m.weak {
		return int(m.count.LoadRelaxed())
	}
	return m.plain
}
