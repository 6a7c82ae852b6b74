//go:build explore

package scenarios

import "github.com/wsched/wsched/explore"

// The scenarios whose plain search takes more than a few seconds run it
// with the state cache (explore.Options.StateCache; docs/explore.md, "The
// state cache"): a run is cut at a decision whose state, the same trace
// with the same goroutine deciding and no more preemptions left, the
// search has run everything below already. Exhaustive still means every
// schedule within the bound. WSCHED_EXPLORE_CACHE=off runs them without
// it, to compare.

// cached is opt with the state cache on. It changes nothing under -long
// (in the weak mode weakSearch chooses the search there): there most of
// these searches stop at their budget, which counts schedules, and a
// schedule with the cache costs about twice one without (the clocks:
// stranding/batch-mate 0.24 µs a step against 0.11, its cut runs' coasting
// included), so the budget would take about twice as long (measured:
// -long's explore layer ran longer with it; docs/explore.md, "The state
// cache"). The searches the cache ends there use cachedUnderLong.
func cached(opt explore.Options) explore.Options {
	if long() {
		return opt
	}
	opt.StateCache = true
	return opt
}

// cachedUnderLong is cached, and under -long too: for a search that the
// cache ends at -long's raised bound, where without it the budget runs
// out. At 2 preemptions stranding/lifo-slot ran 3,250,284 schedules
// (1,837,504 of them cut) in 2m9s of one core, where the search without
// the cache is about 49,000,000; lifo-slot-after-idle 1,952,641 (1,090,793
// cut) in 1m30s, against about 83,000,000; runtime/two-wakes 11,391,641
// in about 6 minutes (docs/explore.md, "The state cache", "Where it ends
// what -long cut"). Check gives a cached search
// ten times its budget there whatever the forecast of the search without
// the cache says (explore/check.go, longBudget), so the scenario's budget
// for -long is a tenth of what ends it, with room.
func cachedUnderLong(opt explore.Options) explore.Options {
	opt.StateCache = true
	return opt
}

// plainCached is, outside the weak-memory mode, the plain search with the
// state cache for a scenario written for the reduced search: on the
// two-worker runtime scenarios it runs 2 to 4 times fewer steps than the
// reduced search (wake-races-poll-2 at 2: 161,788,930 against 609,927,500),
// each cheaper (docs/explore.md, "The state cache").
// In the weak mode opt is left as it is (the weak layer's runtime
// scenarios choose their search with weakSearch); and so under -long,
// whose bound of 3 the plain search with the cache was not measured at,
// and with WSCHED_EXPLORE_CACHE=off (the reduced search, not the plain one
// without the cache, which would not end in the layer's time).
func plainCached(opt explore.Options) explore.Options {
	if explore.WeakMode() || long() || !cacheOn() {
		return opt
	}
	opt.Reduce, opt.StateCache = false, true
	return opt
}

// weakSearch sets opt's search for a runtime scenario in the weak-memory
// mode: the plain search with the state cache, whose state there is the
// trace with the choices of store made (engine/statecache.go). At 1
// preemption it took 0.55 times the reduced search's time on the weak
// layer's two-worker runtime scenarios and on -long's twelve measured
// side by side (1.0 to 3.1 times less on each; docs/explore.md, "The
// state cache in the weak mode"). Where the cache is off
// (WSCHED_EXPLORE_CACHE=off) it is the reduced search, as before.
func weakSearch(opt *explore.Options) {
	opt.Reduce = !cacheOn()
	opt.StateCache = !opt.Reduce
}

// cacheOn reports whether the environment leaves the cache on: not
// WSCHED_EXPLORE_CACHE=off. In a part of a sharded search
// (WSCHED_EXPLORE_SHARD) the cache holds too, each part caching the states
// of its own subtrees (explore/internal/engine/statecache.go).
func cacheOn() bool {
	opt, _ := explore.FromEnv(explore.Options{StateCache: true})
	return opt.StateCache
}
