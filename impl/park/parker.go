package park

import (
	"errors"
	"time"
)

// Parker puts its owner goroutine to sleep until Unpark or a timeout.
//
// Park is called only by the parker's owner, never concurrently with itself.
// Unpark may be called from any goroutine, any number of times.
type Parker interface {
	// Park blocks until a token is available (consuming it) or, when
	// timeout > 0, until timeout has passed. timeout <= 0 waits without
	// limit. It reports whether it consumed a token; false means the
	// timeout expired first. A true result may come from a stale token.
	Park(timeout time.Duration) (woken bool)
	// Unpark makes a token available. Tokens do not accumulate: several
	// Unparks before one Park wake it once.
	Unpark()
}

// twoParkers is the panic of a second goroutine in one parker's Park, in a
// build with the race detector: Park is its owner's alone.
const twoParkers = "park: two goroutines in Park on the same parker at once: a parker has one owner, the goroutine that sleeps on it (Unpark is for everybody)"

// ErrUnsupported is returned by NewFutex on systems without a futex.
var ErrUnsupported = errors.New("park: futex parker not supported on this system")
