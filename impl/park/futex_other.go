//go:build !linux

package park

import (
	"time"

	"github.com/wsched/wsched/internal/goid"
)

// Futex is only available on Linux; elsewhere NewFutex fails.
type Futex struct {
	owner goid.Guard // as on Linux, so that code and tests naming it build
}

// NewFutex returns ErrUnsupported on this system.
func NewFutex() (*Futex, error) { return nil, ErrUnsupported }

// Park implements Parker; unreachable, NewFutex never returns a Futex here.
func (p *Futex) Park(timeout time.Duration) bool { panic(ErrUnsupported) }

// Unpark implements Parker; unreachable.
func (p *Futex) Unpark() { panic(ErrUnsupported) }

// FutexSupported reports whether NewFutex works on this system.
const FutexSupported = false
