package queue_test

import (
	"testing"

	"github.com/wsched/wsched/linearizability/queuecheck"
	"pgregory.net/rapid"
)

// TestRingRapid runs random sequences of ring and global-queue operations
// on spec/queue and compares each result with the sequential model.
func TestRingRapid(t *testing.T) {
	rapid.Check(t, queuecheck.RingMachine(queuecheck.NewSpec))
}
