//go:build explore

package goid

// Current returns the calling goroutine's number: the explorer's name for
// it while a schedule runs (negative, never a runtime number), else the
// runtime's.
func Current() int64 {
	if f := explorerName; f != nil {
		if id, ok := f(); ok {
			return id
		}
	}
	return fromStack()
}
