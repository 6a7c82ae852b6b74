package explore

import "os"

// WeakEnv, set (WSCHED_EXPLORE_WEAK=1), runs every scenario that Check
// runs in the weak-memory mode.
const WeakEnv = "WSCHED_EXPLORE_WEAK"

// WeakMode reports whether Check runs scenarios in the weak-memory mode
// (the weak build tag or WeakEnv): a scenario whose property holds only
// under sequential consistency, or that races by design, can say so and
// skip.
func WeakMode() bool { return weakTag || os.Getenv(WeakEnv) != "" }
