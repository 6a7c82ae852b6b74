//go:build explore

package debugcheck

// Explore reports whether this is the explorer's build (the explore tag).
const Explore = true

// IsExplore is Explore as 1 or 0, for a size the explore build makes
// smaller, as Go's internal/goos gives IsLinux beside GOOS:
// `n = 64*(1-IsExplore) + 2*IsExplore` is 64, or 2 under the explorer.
const IsExplore = 1
