//go:build !explore

package queue

const capacity = 256
