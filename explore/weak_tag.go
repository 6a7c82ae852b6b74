//go:build weak

package explore

// weakTag: built with -tags explore,weak, Check runs every scenario in the
// weak-memory mode (the package comment, "Memory"). cmd/verify's weak
// layer and the catalog's weak entries build so; WSCHED_EXPLORE_WEAK=1
// does the same for a run by hand.
const weakTag = true
