//go:build !forkjoin

package bench

// forkJoinPeers has no runtime rows in the default build: impl/forkjoin's rows live in
// forkjoin_impl_test.go, built with -tags forkjoin.
func forkJoinPeers() []forkJoinPeer { return nil }
