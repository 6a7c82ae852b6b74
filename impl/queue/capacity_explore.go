//go:build explore

package queue

// A ring of 4 slots under the explorer (see Capacity).
const capacity = 4
