package queue_test

import (
	"testing"

	"github.com/wsched/wsched/linearizability/queuecheck"
	"pgregory.net/rapid"
)

// TestRingRapid runs random sequences of ring and global-queue operations
// on impl/queue, one at a time, and compares each result with the
// sequential model (package model). Ring indices start near 2^32 in most
// runs, so head and tail wrap around.
func TestRingRapid(t *testing.T) {
	rapid.Check(t, queuecheck.RingMachine(queuecheck.NewImpl))
}
