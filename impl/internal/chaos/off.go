//go:build !chaos

package chaos

// Enabled reports whether the chaos yield points are compiled in.
const Enabled = false

// Point is a yield point. Without the chaos build tag it does nothing and is
// inlined away.
func Point() {}
