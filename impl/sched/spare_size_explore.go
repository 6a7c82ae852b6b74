//go:build explore

package sched

// Under the explorer a worker gives records to the shared stack once it
// holds 4, so that giving and taking happen a few spawns into a scenario.
const spareBatchSize = 2
