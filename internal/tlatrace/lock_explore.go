//go:build tlatrace && explore

package tlatrace

// Under the explorer one goroutine runs at a time, and no scheduling point
// comes between a logged access and its record (doc.go): nothing to lock.
// (A mutex here would block a goroutine the explorer thinks is running.)
func lock()   {}
func unlock() {}
