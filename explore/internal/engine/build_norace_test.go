//go:build !race

package engine

// raceBuild: the test binary has the race detector in it.
const raceBuild = false
