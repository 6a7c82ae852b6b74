//go:build !tlatrace

package tlatrace

// On reports whether the actions are recorded (the tlatrace build tag).
const On = false

// Event is one recorded action (see on.go).
type Event struct {
	Seq               int64
	Action            string
	Proc, Ring        any
	Steal, Real, Tail uint32
	N                 uint32
	OK                bool
	Task              any
	Worker            int
	X                 int64
	Bits              uint64
	G                 int64
}

// Lock, Done, Note, StealBegin, Room, SetTask, Bind, Idle, Cancelling,
// Strand and Mark do nothing without the tag; impl/ calls them only inside `if On`.
func Unlock()                                                                    {}
func Lock()                                                                      {}
func Done(Event)                                                                 {}
func Note(Event)                                                                 {}
func StealBegin(dst, src any)                                                    {}
func Room(dst any, tail, room uint32)                                            {}
func SetTask(task any)                                                           {}
func Bind(worker int)                                                            {}
func Idle(Event)                                                                 {}
func Cancelling(bool)                                                            {}
func Strand(action string, worker int, task any, x int64, n uint32, ok bool)     {}
func StrandDone(action string, worker int, task any, x int64, n uint32, ok bool) {}
func Mark() int64                                                                { return 0 }
