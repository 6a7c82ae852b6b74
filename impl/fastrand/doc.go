// Package fastrand is the per-worker pseudo-random generator the scheduler
// uses to pick steal victims.
//
// Rand is xorshift64+ kept as two 32-bit halves with the shift triplet
// [17, 7, 16], the same generator family as Tokio's FastRand: a handful of
// shifts and xors per draw, period 2^64-1, state never all-zero. N maps a
// draw onto [0, n) with Lemire's multiply-shift reduction, which needs no
// division. That reduction is not exactly unbiased: each value's
// probability is off from 1/n by at most 1/2^32, which is far below
// anything victim selection can notice; the rejection step that would
// remove it is left out on purpose.
//
// What this package is not: it is not safe for concurrent use (each worker
// owns its own Rand), and it is not a source of unpredictable numbers; never
// use it for anything security-related.
package fastrand
