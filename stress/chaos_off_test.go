//go:build !chaos

package stress

// chaosBuild reports whether the test binary was built with -tags chaos,
// which turns on impl/'s yield points (impl/internal/chaos).
const chaosBuild = false
