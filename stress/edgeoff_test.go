package stress

import "github.com/wsched/wsched/internal/edgeoff"

// In a race build these tests judge impl/'s atomics alone: without the
// edge annotations, which would order a hand-off the atomics fail to
// (internal/edgeoff).
func init() { edgeoff.Set() }
