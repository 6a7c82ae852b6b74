package engine

// Channels. explore/sync runs a receive of a channel's close (Recv) as a
// wait on the channel's location, and a Select of several channels as a
// wait on closeLoc, which every close of a channel writes; the reduced
// search orders such a wait against those writes alone, not against
// every step. The closes are announced with ChannelOp (sync.PointOn: a
// scheduling point before the close) or ChannelClosed (a close inside a
// step: a context's cancel, explore.WithCancel).
//
// One location for every close, not one per channel: a Select waits for
// any of its channels, and the reduced search reverses a race with a wait
// (por_run.go, race) on the premise that the wait's location alone kept
// it waiting, so that a step which could not go before a write of it
// cannot go before an earlier one either. With a location per channel,
// a Select woken by the close of one channel would never be run before
// that close with the close of another first (the two closes, on two
// locations, commute). Through closeLoc the closes conflict with one
// another, so both orders of them are run.
//
// That is sound only if the explorer sees every close of a channel such a
// wait reads. A channel closed where it does not (context.WithCancel's
// cancel, a context's timer) would make the wait's step look independent
// of the close, and the reduced search would not run the order in which
// the wait comes first. So a run remembers the channels it saw closed,
// and a wait that finds one of its channels closed without that fails the
// schedule (ChannelSeen; explore/sync checks it as each wait returns).
// The plain search, which runs every order, therefore reaches that
// failure wherever such a close can reach a wait, whatever the reduced
// search would have skipped.

// closeLoc is written by every close of a channel the explorer sees and
// read by a Select's wait (above).
const closeLoc = clockLoc - 3

// sawChannel records that the running schedule closed the channel at loc.
func (r *run) sawChannel(loc uintptr) {
	if r.chans == nil {
		r.chans = make(map[uintptr]struct{})
	}
	r.chans[loc] = struct{}{}
}

// ChannelOp is a scheduling point before a close of (close set), or a
// send on, the channel at loc: a write of its location (and of closeLoc
// for a close), and, in the weak-memory mode, a release (the close or
// send happens before the receive that sees it).
func ChannelOp(loc uintptr, close bool) {
	PointAt(loc, true)
	if close {
		if r := current.Load(); r != nil && !r.cur.exiting {
			Touch(closeLoc, true)
			r.sawChannel(loc)
		}
	}
	WeakRelease(loc)
}

// ChannelClosed records that the running step closes the channel at loc
// with no scheduling point of its own: the close belongs to the step since
// the goroutine's last point, as a Touch does, and in the weak-memory mode
// it is a release. The plain search's schedules are unchanged by it.
// Outside a run it does nothing.
func ChannelClosed(loc uintptr) {
	r := current.Load()
	if r == nil || r.cur == nil || r.cur.exiting {
		return
	}
	Touch(loc, true)
	Touch(closeLoc, true)
	r.sawChannel(loc)
	WeakRelease(loc)
}

// ChannelSeen reports whether the running schedule closed the channel at
// loc through ChannelOp or ChannelClosed. Outside a run, and while a
// failed schedule is torn down, it reports true.
func ChannelSeen(loc uintptr) bool {
	r := current.Load()
	if r == nil || r.cur == nil || r.cur.exiting {
		return true
	}
	_, ok := r.chans[loc]
	return ok
}

// BlockOnCloseOf is Block for a wait until one of a, b and c (nil for
// none) is closed (a Select): its step reads closeLoc. With all three
// nil, the wait reads nothing (a Select of nil channels, which nothing
// ends until a deadlock is reported). The channels are held in the
// goroutine's record, so a wait allocates no closure.
func BlockOnCloseOf(a, b, c <-chan struct{}, what string) {
	r := current.Load()
	if r == nil {
		panic("explore: Block outside a run")
	}
	sharedOps.Add(1)
	on := closeRead
	if a == nil && b == nil && c == nil {
		on = noAccess
	}
	t := r.cur
	t.closeOf = [3]<-chan struct{}{a, b, c}
	r.block(t, t.anyClosed, 0, what, on)
	t.closeOf = [3]<-chan struct{}{}
}

// anyClosedOf reports whether a channel of t.closeOf is closed.
func (t *thread) anyClosedOf() bool {
	for _, ch := range t.closeOf {
		select {
		case <-ch:
			return true
		default:
		}
	}
	return false
}

// closeRead is a Select's wait: a read of closeLoc.
var closeRead = []access{{closeLoc, false}}
