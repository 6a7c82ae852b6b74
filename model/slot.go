package model

import "fmt"

// The LIFO slot (impl/queue.Slot): one place for one task. The owner puts
// (displacing what was there) and takes; a thief steals. Take and Steal
// are the same operation on the slot, an exchange with empty; they differ
// only in who may call them, which the scheduler decides.

// SlotOpKind is one operation on the slot.
type SlotOpKind uint8

const (
	SlotPut   SlotOpKind = iota // owner: store a task, return the one displaced
	SlotTake                    // owner: empty the slot, return its task
	SlotSteal                   // thief: the same as Take
	SlotFull                    // anyone: whether a task is there
)

func (k SlotOpKind) String() string {
	return [...]string{"Put", "Take", "Steal", "Full"}[k]
}

// SlotInput is an operation and, for Put, its task (task ids are > 0).
type SlotInput struct {
	Kind SlotOpKind
	Task int
}

// SlotOutput is what an operation returned: the task displaced (Put) or
// taken (Take, Steal), 0 for none; whether the slot was full (Full).
type SlotOutput struct {
	Task int
	Full bool
}

// SlotState is the task in the slot, 0 when empty. A plain value: ==
// compares states.
type SlotState struct{ Task int }

// SlotStep is the model: whether out is what in returns in state s, and
// the state after it.
func SlotStep(s SlotState, in SlotInput, out SlotOutput) (bool, SlotState) {
	switch in.Kind {
	case SlotPut:
		return out.Task == s.Task, SlotState{Task: in.Task}
	case SlotTake, SlotSteal:
		return out.Task == s.Task, SlotState{}
	case SlotFull:
		return out.Full == (s.Task != 0), s
	}
	return false, s
}

// Describe renders an operation and its result for failure messages.
func (in SlotInput) Describe(out SlotOutput) string {
	switch in.Kind {
	case SlotPut:
		return fmt.Sprintf("Put(%d) -> displaced %d", in.Task, out.Task)
	case SlotFull:
		return fmt.Sprintf("Full() -> %v", out.Full)
	}
	return fmt.Sprintf("%s() -> %d", in.Kind, out.Task)
}
