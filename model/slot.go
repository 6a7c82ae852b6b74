package model

import "fmt"

// This file models a worker's LIFO slot (impl/queue.Slot, spec/queue.Slot):
// one place for one task. The owner puts, displacing the task that was
// there, and takes; a thief steals. Take and Steal are the same operation
// on the slot, an exchange with empty: they differ only in who may call
// them, which the callers' contract decides, not the model.
//
// Tasks are positive ints (ids); 0 means "no task".
//
// What the model guarantees, and what a check against it shows: a task
// leaves the slot only as the result of one call (the Put that displaced
// it, or a Take or Steal), so no task is returned twice, and a task put is
// never lost: it is in the slot until a call returns it. A history that
// ends by taking what is left accounts for every task put exactly once.

// SlotOpKind names an operation of the slot model.
type SlotOpKind uint8

const (
	SlotPut   SlotOpKind = iota + 1 // Slot.Put(Task): Out.Task = the task displaced, 0 if none
	SlotTake                        // Slot.Take() (owner): Out.Task, 0 when empty
	SlotSteal                       // Slot.Steal() (any goroutine): Out.Task, 0 when empty
	SlotFull                        // Slot.Full(): Out.Full
)

var slotOpNames = [...]string{SlotPut: "Put", SlotTake: "Take", SlotSteal: "Steal", SlotFull: "Full"}

func (k SlotOpKind) String() string {
	if int(k) < len(slotOpNames) && slotOpNames[k] != "" {
		return slotOpNames[k]
	}
	return fmt.Sprintf("SlotOp(%d)", uint8(k))
}

// SlotInput is one call. Task is the task a Put stores (> 0: putting no
// task is not a call the slot allows, it panics).
type SlotInput struct {
	Kind SlotOpKind
	Task int
}

// SlotOutput is one call's result: the task displaced (Put) or taken
// (Take, Steal), 0 for none; whether the slot held a task (Full).
type SlotOutput struct {
	Task int
	Full bool
}

// SlotState is the task in the slot, 0 when empty. It is a plain value:
// == compares states, and Step never changes the one it is given.
type SlotState struct{ Task int }

// SlotModel is the sequential specification of the slot. There is one
// mode: every call is a single exchange or load in impl/queue (one critical
// section in spec/queue), so concurrent histories are checked against the
// same rules as sequential ones, with no outcome that only a race may show.
type SlotModel struct{}

// Step reports whether the call in, returning out, is allowed in state s,
// and if so the state after it. A refused call leaves s as it was.
func (SlotModel) Step(s SlotState, in SlotInput, out SlotOutput) (bool, SlotState) {
	switch in.Kind {
	case SlotPut:
		if in.Task <= 0 || out.Task != s.Task {
			return false, s
		}
		return true, SlotState{Task: in.Task}
	case SlotTake, SlotSteal:
		if out.Task != s.Task {
			return false, s
		}
		return true, SlotState{}
	case SlotFull:
		return out.Full == (s.Task != 0), s
	}
	return false, s
}

// Expect returns the result the model demands of in, and the state after
// it, for sequential tests that want the expected value in their failure
// message. ok is false when the call cannot happen at all (a Put of no
// task, an unknown kind).
func (m SlotModel) Expect(s SlotState, in SlotInput) (out SlotOutput, next SlotState, ok bool) {
	switch in.Kind {
	case SlotPut, SlotTake, SlotSteal:
		out.Task = s.Task
	case SlotFull:
		out.Full = s.Task != 0
	}
	ok, next = m.Step(s, in, out)
	return out, next, ok
}

// String shows the state, as in "slot[7]" or "slot[]".
func (s SlotState) String() string {
	if s.Task == 0 {
		return "slot[]"
	}
	return fmt.Sprintf("slot[%d]", s.Task)
}

// Describe shows a call and its result, as in "slot.Put(8) -> 7" (7 was
// displaced) or "slot.Steal() -> 0".
func (in SlotInput) Describe(out SlotOutput) string {
	switch in.Kind {
	case SlotPut:
		return fmt.Sprintf("slot.Put(%d) -> %d", in.Task, out.Task)
	case SlotTake, SlotSteal:
		return fmt.Sprintf("slot.%v() -> %d", in.Kind, out.Task)
	case SlotFull:
		return fmt.Sprintf("slot.Full() -> %v", out.Full)
	}
	return fmt.Sprintf("unknown op %d", in.Kind)
}
