//go:build !chaos

package linearizability

// chaosTag reports whether the test binary was built with -tags chaos, which
// turns on impl/'s yield points (impl/internal/chaos).
const chaosTag = false
