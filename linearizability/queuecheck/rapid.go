package queuecheck

import (
	"fmt"
	"math"
	"slices"

	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// RingMachine returns a rapid property that runs a random sequence of
// queue operations on a fresh target from newTarget and compares every
// result, every overflow hand-off and every length with the sequential
// model (model.QueueModel with Concurrent false).
//
// Three rings make chained steals possible (ring 0 -> 1 -> 2). The rings'
// indices start at a drawn value, often just below 2^32, so that the 32-bit
// head and tail of impl/queue wrap around during the run. Pushes come in
// bursts of up to 300 so that rings fill and overflow within a short run.
func RingMachine(newTarget func(start uint32, rings int) Target) func(*rapid.T) {
	return func(t *rapid.T) {
		const rings = 3
		start := rapid.OneOf(
			rapid.Uint32Range(math.MaxUint32-600, math.MaxUint32),
			rapid.Uint32(),
			rapid.Just(uint32(0)),
		).Draw(t, "start")
		m := &machine{x: newTarget(start, rings), s: model.NewQueueState(rings)}
		ring := rapid.IntRange(0, rings-1)
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				r := ring.Draw(t, "ring")
				k := rapid.OneOf(rapid.IntRange(1, 8), rapid.IntRange(100, 300)).Draw(t, "burst")
				for range k {
					m.push(t, r)
				}
			},
			"pop": func(t *rapid.T) {
				r := ring.Draw(t, "ring")
				k := rapid.IntRange(1, 40).Draw(t, "count")
				for range k {
					m.step(t, model.QueueInput{Kind: model.OpPop, Ring: r})
				}
			},
			"steal": func(t *rapid.T) {
				src := ring.Draw(t, "src")
				dst := ring.Filter(func(d int) bool { return d != src }).Draw(t, "dst")
				m.step(t, model.QueueInput{Kind: model.OpSteal, Ring: src, Dst: dst})
			},
			"globalPush": func(t *rapid.T) {
				m.next++
				m.step(t, model.QueueInput{Kind: model.OpGlobalPush, Task: m.next})
			},
			"globalPopBatch": func(t *rapid.T) {
				max := rapid.IntRange(1, 64).Draw(t, "max")
				m.step(t, model.QueueInput{Kind: model.OpGlobalPopBatch, Max: max})
			},
			"": func(t *rapid.T) {
				for r := range rings {
					m.step(t, model.QueueInput{Kind: model.OpLen, Ring: r})
				}
				m.step(t, model.QueueInput{Kind: model.OpGlobalLen})
			},
		})
	}
}

type machine struct {
	x    Target
	s    model.QueueState
	next int // last task id used
}

var seqModel = model.QueueModel{}

// step runs in on the target and compares with the model's expectation.
func (m *machine) step(t *rapid.T, in model.QueueInput) {
	t.Helper()
	want, next, ok := seqModel.Expect(m.s, in)
	if !ok {
		t.Fatalf("model cannot take %v in state %v", in.Describe(want), m.s)
	}
	got := m.run(in)
	if got.Task != want.Task || got.N != want.N || !slices.Equal(got.Tasks, want.Tasks) {
		t.Fatalf("%s, want %s\nstate before: %v", in.Describe(got), in.Describe(want), m.s)
	}
	m.s = next
}

// run calls the target for everything except Push.
func (m *machine) run(in model.QueueInput) (out model.QueueOutput) {
	switch in.Kind {
	case model.OpPop:
		out.Task = m.x.Pop(in.Ring)
	case model.OpSteal:
		out.Task, out.N = m.x.StealInto(in.Ring, in.Dst)
	case model.OpLen:
		out.N = m.x.Len(in.Ring)
	case model.OpGlobalPush:
		m.x.GlobalPush(in.Task)
	case model.OpGlobalPopBatch:
		out.Tasks = m.x.GlobalPopBatch(in.Max)
	case model.OpGlobalLen:
		out.N = m.x.GlobalLen()
	default:
		panic(fmt.Sprintf("queuecheck: run %v", in.Kind))
	}
	return out
}

// push pushes a new task and checks the result and the Injector calls it
// made: none, or exactly one PushBatch holding the oldest MaxSteal tasks.
func (m *machine) push(t *rapid.T, ring int) {
	t.Helper()
	m.next++
	in := model.QueueInput{Kind: model.OpPush, Ring: ring, Task: m.next}
	want, next, _ := seqModel.Expect(m.s, in)
	rec := &recordingOverflow{x: m.x, ring: ring}
	got := model.QueueOutput{N: m.x.Push(ring, m.next, rec)}
	if got.N != want.N {
		t.Fatalf("%s, want %s\nstate before: %v", in.Describe(got), in.Describe(want), m.s)
	}
	wantCalls := 0
	if want.N > 0 {
		wantCalls = 1
	}
	if len(rec.calls) != wantCalls || (wantCalls == 1 && rec.calls[0].Kind != model.OpGlobalPushBatch) {
		t.Fatalf("%s made Injector calls %v, want one PushBatch per overflow", in.Describe(got), rec.describe())
	}
	for _, c := range rec.calls {
		ok, after := seqModel.Step(next, c, model.QueueOutput{})
		if !ok {
			t.Fatalf("%s handed the wrong tasks to overflow: %s, expected %v", in.Describe(got), c.Describe(model.QueueOutput{}), next.Transit[ring])
		}
		next = after
	}
	m.s = next
}

// recordingOverflow forwards to the global queue and remembers each call
// as a model input.
type recordingOverflow struct {
	x     Target
	ring  int
	calls []model.QueueInput
}

func (r *recordingOverflow) Push(task int) {
	r.calls = append(r.calls, model.QueueInput{Kind: model.OpGlobalPush, Ring: r.ring, Task: task, Overflow: true})
	r.x.GlobalPush(task)
}

func (r *recordingOverflow) PushBatch(tasks []int) {
	r.calls = append(r.calls, model.QueueInput{Kind: model.OpGlobalPushBatch, Ring: r.ring, Tasks: slices.Clone(tasks), Overflow: true})
	r.x.GlobalPushBatch(tasks)
}

func (r *recordingOverflow) describe() []string {
	var ds []string
	for _, c := range r.calls {
		ds = append(ds, c.Describe(model.QueueOutput{}))
	}
	return ds
}
