package queue_test

import (
	"testing"

	"github.com/wsched/wsched/linearizability/queuecheck"
	"pgregory.net/rapid"
)

// TestSlotRapid runs random sequences of Put, Take and Steal on spec/queue's
// Slot and compares each result, and Full after each call, with the
// sequential model.
func TestSlotRapid(t *testing.T) {
	rapid.Check(t, queuecheck.SlotMachine(queuecheck.NewSpecSlot))
}
