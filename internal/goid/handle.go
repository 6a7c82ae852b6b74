package goid

// Handle returns a number that tells the calling goroutine from every
// other goroutine alive at the same moment, at the cost of a register
// read: the address of the runtime's record of the goroutine (its g),
// which stays the same for the goroutine's whole life while its stack
// grows and moves.
//
// The promise is weaker than Current's: once a goroutine has exited the
// runtime gives its record to a new goroutine, so a handle kept past its
// goroutine's exit may name another one. A holder compares a handle only
// while the goroutine it names is known to be alive (a worker's, while a
// poll or job runs on it), or forgets it before that goroutine ends.
//
// amd64 and arm64 read the g from where the runtime keeps it (the
// thread-local slot, the g register: handle_*.s); elsewhere Handle falls
// back to Current, whose numbers are never reused but cost a stack trace.
func Handle() uintptr { return handle() }
