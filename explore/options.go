package explore

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/wsched/wsched/explore/internal/engine"
)

// Options bound one exploration and say how Check runs and reports it:
// the engine's own type. Every field, what it means, its default and the
// environment variable that sets it are documented on the engine's
// declaration (go doc ./explore/internal/engine Options) and in the
// package comment's table, "Settings".
type Options = engine.Options

// Logger is where a search says what it learns as it goes (Options.Log);
// a *testing.T is one.
type Logger = engine.Logger

// Result is what an exploration did: how many schedules and steps it ran,
// whether the search was exhaustive at which bound, and the first
// failure, if one was found (go doc ./explore/internal/engine Result).
type Result = engine.Result

// Failure is a failed schedule: how it failed, its message, the token
// that replays it and the schedule as numbered steps (go doc
// ./explore/internal/engine Failure).
type Failure = engine.Failure

// Shard is part K of N of one search (Options.Shard; go doc
// ./explore/internal/engine Shard): N processes or machines, each running
// one part with the same options, run the whole search between them.
type Shard = engine.Shard

// Subtree is what a part of a sharded reduced search ran in one subtree
// (Result.Subtrees; go doc ./explore/internal/engine Subtree).
type Subtree = engine.Subtree

// ParseShard reads "k/n", with 0 <= k < n (ShardEnv's value).
func ParseShard(s string) (Shard, error) { return engine.ParseShard(s) }

// Forecast is what a depth-first search will take, estimated before it
// starts: its schedules, round by round, and its time (go doc
// ./explore/internal/engine Forecast).
type Forecast = engine.Forecast

// ForecastSearch estimates what the depth-first search of body under opt
// will take, from random schedules (Knuth's estimator; at most
// opt.EstimateProbes per round); Check logs it before each search. The
// zero Forecast for a replay, PCT or the reduced search.
func ForecastSearch(opt Options, body func()) Forecast { return engine.ForecastSearch(opt, body) }

// The environment variables of the explorer, each the setting of one
// field of Options (FromEnv reads them all).
const (
	// ReplayEnv ('scenario=token') sets Replay and ReplayScenario:
	//
	//	WSCHED_EXPLORE_REPLAY='ring/basic=sc/17:g2,40:g1' go test -tags explore -run '^TestExploreRingBasic$' ./explore/scenarios
	ReplayEnv = "WSCHED_EXPLORE_REPLAY"
	// WeakEnv (any value) sets Weak, as the weak build tag does.
	WeakEnv = "WSCHED_EXPLORE_WEAK"
	// ReduceEnv sets Reduce; =unbounded, Reduce and Unbounded. A scenario
	// that chose the plain search with the state cache (StateCache set in
	// its options) keeps it, unless CacheEnv=off clears that choice, in a
	// part of a sharded search too: the weak layer sets ReduceEnv for
	// every scenario, and the runtime scenarios choose the cache there
	// (docs/explore.md, "The state cache in the weak mode").
	ReduceEnv = "WSCHED_EXPLORE_REDUCE"
	// LongEnv (any value) sets Long.
	LongEnv = "WSCHED_LONG"
	// ClassesEnv (any value) sets CompareClasses.
	ClassesEnv = "WSCHED_EXPLORE_CLASSES"
	// ClaimsEnv names the directory of Claims.
	ClaimsEnv = "WSCHED_EXPLORE_CLAIMS"
	// RecordsEnv names the file of Records.
	RecordsEnv = "WSCHED_EXPLORE_RECORDS"
	// EvidenceEnv names the directory of Evidence.
	EvidenceEnv = "WSCHED_EXPLORE_EVIDENCE"
	// ShardEnv ('k/n', 0 <= k < n) sets Shard: this process runs part k
	// of n of each search (docs/explore.md, "Sharding").
	ShardEnv = "WSCHED_EXPLORE_SHARD"
	// EstimateEnv (a number of probes, or off) sets EstimateProbes: the
	// forecast Check logs before a depth-first search.
	EstimateEnv = "WSCHED_EXPLORE_ESTIMATE"
	// DepsEnv (any value) sets Dependencies and Reduce: Check logs what
	// the reduced search's races come from.
	DepsEnv = "WSCHED_EXPLORE_DEPS"
	// MutantEnv names the catalog mutant of Mutant: cmd/mutant and
	// cmd/verify -mutants set it for the commands they run.
	MutantEnv = "WSCHED_MUTANT"
	// PlayEnv (any value) sets Play.
	PlayEnv = "WSCHED_EXPLORE_PLAY"
	// SymmetryEnv=off sets NoSymmetry: the plain search runs every twin
	// of a Symmetric group.
	SymmetryEnv = "WSCHED_EXPLORE_SYMMETRY"
	// CacheEnv=1 (or on) sets StateCache; =off clears it, whatever the
	// scenario asked: the plain search runs every schedule within its
	// bound.
	CacheEnv = "WSCHED_EXPLORE_CACHE"
)

// FromEnv is opt with the settings of the environment applied: the one
// place the explorer reads its environment variables (the constants
// above; the weak build tag counts as WeakEnv). A variable turns a
// setting on or names its value; an unset one leaves opt's field as the
// scenario wrote it. A malformed value is an error.
func FromEnv(opt Options) (Options, error) {
	if v := os.Getenv(ReplayEnv); v != "" {
		name, tok, ok := strings.Cut(v, "=")
		if !ok {
			return opt, fmt.Errorf("%s=%q: want scenario-name=token", ReplayEnv, v)
		}
		opt.ReplayScenario, opt.Replay = name, tok
	}
	if weakTag || os.Getenv(WeakEnv) != "" {
		opt.Weak = true
	}
	// The scenario's own choice of the state cache, which ReduceEnv
	// leaves in place (CacheEnv=1 is not a scenario's choice; =off takes
	// it back), in a part of a sharded search too (a part caches the
	// states of its own subtrees: engine/statecache.go).
	chose := opt.StateCache && os.Getenv(CacheEnv) != "off"
	switch os.Getenv(ReduceEnv) {
	case "":
	case "unbounded":
		if !chose {
			opt.Reduce, opt.Unbounded = true, true
		}
	default:
		if !chose {
			opt.Reduce = true
		}
	}
	if os.Getenv(DepsEnv) != "" {
		opt.Dependencies, opt.Reduce = true, true
	}
	if os.Getenv(LongEnv) != "" {
		opt.Long = true
	}
	if os.Getenv(ClassesEnv) != "" {
		opt.CompareClasses = true
	}
	if os.Getenv(PlayEnv) != "" {
		opt.Play = true
	}
	switch v := os.Getenv(CacheEnv); v {
	case "":
	case "1", "on":
		opt.StateCache = true
	case "off":
		opt.StateCache = false
	default:
		return opt, fmt.Errorf("%s=%q: want 1 (or on) or off", CacheEnv, v)
	}
	switch v := os.Getenv(SymmetryEnv); v {
	case "", "on":
	case "off":
		opt.NoSymmetry = true
	default:
		return opt, fmt.Errorf("%s=%q: want off (or on)", SymmetryEnv, v)
	}
	if v := os.Getenv(ShardEnv); v != "" {
		sh, err := ParseShard(v)
		if err != nil {
			return opt, fmt.Errorf("%s: %v", ShardEnv, err)
		}
		opt.Shard = sh
	}
	switch v := os.Getenv(EstimateEnv); v {
	case "":
	case "off":
		opt.EstimateProbes = -1
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return opt, fmt.Errorf("%s=%q: want a number of probes per round, or off", EstimateEnv, v)
		}
		opt.EstimateProbes = n
	}
	setString := func(field *string, env string) {
		if v := os.Getenv(env); v != "" {
			*field = v
		}
	}
	setString(&opt.Claims, ClaimsEnv)
	setString(&opt.Records, RecordsEnv)
	setString(&opt.Evidence, EvidenceEnv)
	setString(&opt.Mutant, MutantEnv)
	return opt, nil
}

// WeakMode reports whether Check runs scenarios in the weak-memory mode
// (the weak build tag or WeakEnv): a scenario whose property holds only
// under sequential consistency, or that races by design, can say so and
// skip.
func WeakMode() bool {
	opt, _ := FromEnv(Options{})
	return opt.Weak
}
