//go:build race

package rapidcases

// RaceBuild: the binary has the race detector in it.
const RaceBuild = true
