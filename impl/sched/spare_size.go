//go:build !explore

package sched

// spareBatchSize is spareBatch (recycle.go).
const spareBatchSize = 64
