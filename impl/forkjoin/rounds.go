//go:build !explore

package forkjoin

// sleepyRounds is roundsUntilSleepy: 32 searches, each followed by a
// yield, before an idle worker announces that it is sleepy.
const sleepyRounds = 32
