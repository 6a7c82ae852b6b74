package model

import "testing"

// TestSlotStep walks the model through a put, a displacing put, a steal of
// what is there, a take of an empty slot, and refuses wrong answers.
func TestSlotStep(t *testing.T) {
	s := SlotState{}
	steps := []struct {
		in   SlotInput
		out  SlotOutput
		want SlotState
	}{
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: false}, SlotState{}},
		{SlotInput{Kind: SlotPut, Task: 1}, SlotOutput{}, SlotState{Task: 1}},
		{SlotInput{Kind: SlotPut, Task: 2}, SlotOutput{Task: 1}, SlotState{Task: 2}},
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: true}, SlotState{Task: 2}},
		{SlotInput{Kind: SlotSteal}, SlotOutput{Task: 2}, SlotState{}},
		{SlotInput{Kind: SlotTake}, SlotOutput{}, SlotState{}},
	}
	for i, st := range steps {
		ok, next := SlotStep(s, st.in, st.out)
		if !ok || next != st.want {
			t.Fatalf("step %d: %s in %+v: ok=%v next=%+v, want ok and %+v", i, st.in.Describe(st.out), s, ok, next, st.want)
		}
		s = next
	}
	s = SlotState{Task: 7}
	for _, bad := range []struct {
		in  SlotInput
		out SlotOutput
	}{
		{SlotInput{Kind: SlotTake}, SlotOutput{}},            // the task is there
		{SlotInput{Kind: SlotSteal}, SlotOutput{Task: 8}},    // not that task
		{SlotInput{Kind: SlotPut, Task: 9}, SlotOutput{}},    // 7 was displaced
		{SlotInput{Kind: SlotFull}, SlotOutput{Full: false}}, // it is full
	} {
		if ok, _ := SlotStep(s, bad.in, bad.out); ok {
			t.Errorf("the model accepts %s in %+v", bad.in.Describe(bad.out), s)
		}
	}
}
