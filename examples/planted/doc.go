// Package planted checks the planted ordering bugs of the examples from
// the outside, as a user of the explorer would meet them: for each of
// treiber, mpmc and seqlock, the buggy build passes every interleaving
// (go test -tags explore,buggy), fails in the weak-memory mode (go test
// -tags explore,weak,buggy), and the replay command each failure prints,
// run from this module's root, fails the same way.
//
// The package has no code; planted_test.go runs go test on the module's
// packages. It is skipped with -short and under the explore tag (the
// module's explore runs are the other packages' own tests).
package planted
