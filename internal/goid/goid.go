// Package goid tells which goroutine is running: the number Go prints in
// a goroutine's stack trace ("goroutine 18 [running]"). It reads that
// number from runtime.Stack, a call of about a microsecond, so it is for
// checks that a build can afford (a race-detector build, a reference
// implementation), never for a hot path.
//
// Go keeps goroutine identity private on purpose; wsched uses it only to
// say which rule a caller broke (a Context used from a goroutine other
// than the one running its poll), never to decide anything else.
package goid

import "runtime"

// Current returns the calling goroutine's number.
func Current() int64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	// "goroutine 18 [running]:..."
	const prefix = len("goroutine ")
	var id int64
	for _, c := range buf[prefix:n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
