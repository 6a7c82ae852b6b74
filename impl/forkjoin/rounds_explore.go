//go:build explore

package forkjoin

// Under the explorer an idle worker gets sleepy after 1 round, not 32, so
// that sleeping is a few steps into a scenario (as the ring shrinks to 4
// slots).
const sleepyRounds = 1
