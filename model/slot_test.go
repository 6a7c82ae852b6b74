package model

import "testing"

// TestSlotStep checks every call in an empty and in a full slot: Step
// accepts exactly the result Expect gives and moves to the state Expect
// gives, refuses every other result without changing the state, and
// refuses a Put of no task.
func TestSlotStep(t *testing.T) {
	var m SlotModel
	cases := []struct {
		s    SlotState
		in   SlotInput
		out  SlotOutput // the only result allowed
		next SlotState
	}{
		{SlotState{}, SlotInput{Kind: SlotPut, Task: 1}, SlotOutput{}, SlotState{Task: 1}},
		{SlotState{Task: 1}, SlotInput{Kind: SlotPut, Task: 2}, SlotOutput{Task: 1}, SlotState{Task: 2}},
		{SlotState{}, SlotInput{Kind: SlotTake}, SlotOutput{}, SlotState{}},
		{SlotState{Task: 7}, SlotInput{Kind: SlotTake}, SlotOutput{Task: 7}, SlotState{}},
		{SlotState{}, SlotInput{Kind: SlotSteal}, SlotOutput{}, SlotState{}},
		{SlotState{Task: 7}, SlotInput{Kind: SlotSteal}, SlotOutput{Task: 7}, SlotState{}},
		{SlotState{}, SlotInput{Kind: SlotFull}, SlotOutput{Full: false}, SlotState{}},
		{SlotState{Task: 7}, SlotInput{Kind: SlotFull}, SlotOutput{Full: true}, SlotState{Task: 7}},
	}
	for _, c := range cases {
		out, next, ok := m.Expect(c.s, c.in)
		if !ok || out != c.out || next != c.next {
			t.Errorf("Expect(%v, %v) = %s, %v, %v; want %s, %v", c.s, c.in.Kind, c.in.Describe(out), next, ok, c.in.Describe(c.out), c.next)
		}
		// Every other result: another task or none (Put, Take, Steal),
		// the other answer (Full).
		wrongs := []SlotOutput{{Task: c.out.Task + 1}, {Task: 0}, {Task: 9}}
		if c.in.Kind == SlotFull {
			wrongs = []SlotOutput{{Full: !c.out.Full}}
		}
		for _, wrong := range wrongs {
			if wrong == c.out {
				continue
			}
			if ok, after := m.Step(c.s, c.in, wrong); ok || after != c.s {
				t.Errorf("in %v the model accepts %s (state after %v)", c.s, c.in.Describe(wrong), after)
			}
		}
	}
	for _, s := range []SlotState{{}, {Task: 7}} {
		for _, task := range []int{0, -1} {
			in := SlotInput{Kind: SlotPut, Task: task}
			if ok, _ := m.Step(s, in, SlotOutput{Task: s.Task}); ok {
				t.Errorf("in %v the model accepts %s: a Put of no task panics", s, in.Describe(SlotOutput{Task: s.Task}))
			}
		}
		if ok, _ := m.Step(s, SlotInput{}, SlotOutput{}); ok {
			t.Errorf("in %v the model accepts a call of no kind", s)
		}
	}
}

// TestSlotSequence walks one owner and one thief through a history: every
// task put comes out once, whether displaced, taken or stolen.
func TestSlotSequence(t *testing.T) {
	var m SlotModel
	s := SlotState{}
	for i, st := range []struct {
		in  SlotInput
		out SlotOutput
	}{
		{SlotInput{Kind: SlotPut, Task: 1}, SlotOutput{}},
		{SlotInput{Kind: SlotPut, Task: 2}, SlotOutput{Task: 1}}, // 1 displaced
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: true}},
		{SlotInput{Kind: SlotSteal}, SlotOutput{Task: 2}},
		{SlotInput{Kind: SlotTake}, SlotOutput{}}, // the thief got there first
		{SlotInput{Kind: SlotPut, Task: 3}, SlotOutput{}},
		{SlotInput{Kind: SlotTake}, SlotOutput{Task: 3}},
		{SlotInput{Kind: SlotSteal}, SlotOutput{}},
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: false}},
	} {
		ok, next := m.Step(s, st.in, st.out)
		if !ok {
			t.Fatalf("step %d: the model refuses %s in %v", i, st.in.Describe(st.out), s)
		}
		s = next
	}
	if s != (SlotState{}) {
		t.Fatalf("the slot ends as %v, want empty", s)
	}
}

// TestSlotDescribe pins the text porcupine's view and failure messages show.
func TestSlotDescribe(t *testing.T) {
	for _, c := range []struct {
		in   SlotInput
		out  SlotOutput
		want string
	}{
		{SlotInput{Kind: SlotPut, Task: 8}, SlotOutput{Task: 7}, "slot.Put(8) -> 7"},
		{SlotInput{Kind: SlotTake}, SlotOutput{Task: 7}, "slot.Take() -> 7"},
		{SlotInput{Kind: SlotSteal}, SlotOutput{}, "slot.Steal() -> 0"},
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: true}, "slot.Full() -> true"},
	} {
		if got := c.in.Describe(c.out); got != c.want {
			t.Errorf("Describe = %q, want %q", got, c.want)
		}
	}
	if got := (SlotState{Task: 7}).String() + " " + (SlotState{}).String(); got != "slot[7] slot[]" {
		t.Errorf("String = %q", got)
	}
}
