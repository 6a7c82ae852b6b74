package explore

import (
	"cmp"
	"fmt"
	"slices"
)

// Sharding across processes and machines: Options.Shard (ShardEnv,
// WSCHED_EXPLORE_SHARD=k/n) makes each Check run part k of n of its
// search, a disjoint subtree of the schedule tree (the engine's shard.go
// says how it is split); n jobs with the same options and parts 0 to n-1
// run the whole search between them, each writing its run records
// (RecordsEnv). MergeRecords puts the parts' records back together into
// the whole search's; cmd/mergerecords does it for records files.

// Merged is the record of a whole search put together from its parts'.
type Merged struct {
	// Record is the whole search's: Schedules, Cut, CacheFull, Steps and
	// EstimateLeft are the parts' sums (with the state cache, not the
	// whole search's schedules: each part caches its own subtrees'
	// states), ElapsedMS the longest part's (they run side by
	// side), Bound the lowest part's, Exhaustive only if every part was,
	// Failure the failure with the fewest preemptions (the lowest part's
	// among equals: the one the whole search reports, up to which of the
	// parts at that bound comes first in its order), Shard empty.
	Record
	// Parts is how many parts were merged (1: a search that was not
	// split).
	Parts int
	// Failures is every part's failure, by part: the union of what the
	// parts found.
	Failures []RecordFailure
}

// mergeKey is what the parts of one search share: all of a record but
// its counts, its time, its failure and its part.
type mergeKey struct {
	Scenario, Test, Package, Mode, Tags, Mutant string
	Weak                                        bool
	MaxStale, History, N                        int
}

// MergeRecords merges the records of the parts of each sharded search in
// recs into the whole search's, and passes the others through, in the
// order of their first record. A search whose parts do not agree on n,
// lack a part or hold one twice is an error: its merge would claim a
// search that did not run.
func MergeRecords(recs []Record) ([]Merged, error) {
	var order []mergeKey
	groups := map[mergeKey][]Record{}
	var whole []Merged
	for _, r := range recs {
		if r.Shard == "" {
			whole = append(whole, mergedOne(r))
			continue
		}
		sh, err := ParseShard(r.Shard)
		if err != nil {
			return nil, fmt.Errorf("explore: record of %s: %v", r.Scenario, err)
		}
		k := mergeKey{r.Scenario, r.Test, r.Package, r.Mode, r.Tags, r.Mutant, r.Weak, r.MaxStale, r.History, sh.N}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	out := whole
	for _, k := range order {
		m, err := mergeParts(k.N, groups[k])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func mergedOne(r Record) Merged {
	m := Merged{Record: r, Parts: 1}
	if r.Failure != nil {
		m.Failures = []RecordFailure{*r.Failure}
	}
	return m
}

// mergeParts merges the records of parts 0 to n-1 of one search.
func mergeParts(n int, parts []Record) (Merged, error) {
	byPart := make([]*Record, n)
	for i := range parts {
		sh, _ := ParseShard(parts[i].Shard) // parsed by the caller
		if byPart[sh.K] != nil {
			return Merged{}, fmt.Errorf("explore: %s (%s): part %s twice", parts[i].Scenario, parts[i].Mode, sh)
		}
		byPart[sh.K] = &parts[i]
	}
	for k, r := range byPart {
		if r == nil {
			return Merged{}, fmt.Errorf("explore: %s (%s): part %d/%d missing: the parts cover only part of the search", parts[0].Scenario, parts[0].Mode, k, n)
		}
	}
	m := Merged{Record: *byPart[0], Parts: n}
	m.Shard, m.Schedules, m.Cut, m.CacheFull, m.Steps, m.EstimateLeft, m.ElapsedMS, m.Failure, m.Subtrees = "", 0, 0, 0, 0, 0, 0, nil, nil
	m.Exhaustive = true
	if m.Mode == "dpor" {
		if err := mergeSubtrees(&m, byPart); err != nil {
			return Merged{}, err
		}
	}
	for _, r := range byPart {
		if m.Mode != "dpor" {
			m.Schedules += r.Schedules
			m.Steps += r.Steps
		}
		m.Cut += r.Cut
		m.CacheFull += r.CacheFull
		m.EstimateLeft += r.EstimateLeft
		m.ElapsedMS = max(m.ElapsedMS, r.ElapsedMS)
		m.Bound = min(m.Bound, r.Bound)
		m.Exhaustive = m.Exhaustive && r.Exhaustive
		if r.Failure != nil {
			m.Failures = append(m.Failures, *r.Failure)
		}
	}
	if len(m.Failures) > 0 {
		first := slices.MinFunc(m.Failures, func(a, b RecordFailure) int { return cmp.Compare(a.Preemptions, b.Preemptions) })
		m.Failure = &first
	}
	return m, nil
}

// mergeSubtrees counts the schedules and steps of a sharded reduced search
// from its parts' subtrees, each subtree once: two parts may both have run
// one (the engine's por_shard.go says why). Every part that ran a subtree
// to its end ran the same schedules there, and no part stopped inside it
// (its budget, a failure) ran more than those; where either fails, the
// search is not the deterministic one the split rests on, and the merge
// says so. A subtree only stopped parts ran counts the most any ran there.
func mergeSubtrees(m *Merged, parts []*Record) error {
	type key struct{ b, at, c, at2, c2 int }
	type entry struct {
		done     *RecordSubtree // the first part that ran the subtree to its end
		donePart int
		most     RecordSubtree // the most schedules any stopped part ran there
		mostPart int
	}
	subs := map[key]*entry{}
	var order []key
	for k, r := range parts {
		if len(r.Subtrees) == 0 {
			return fmt.Errorf("explore: %s (%s): part %s of a reduced search names no subtree: the parts cannot be merged", r.Scenario, r.Mode, r.Shard)
		}
		for _, s := range r.Subtrees {
			kk := key{s.Bound, s.At, s.Choice, s.At2, s.Choice2}
			e := subs[kk]
			if e == nil {
				e = &entry{mostPart: -1}
				subs[kk] = e
				order = append(order, kk)
			}
			switch {
			case !r.Exhaustive:
				if e.mostPart < 0 || s.Schedules > e.most.Schedules {
					e.most, e.mostPart = s, k
				}
			case e.done == nil:
				e.done, e.donePart = &s, k
			case e.done.Schedules != s.Schedules || e.done.Steps != s.Steps:
				return fmt.Errorf("explore: %s (%s): subtree %d.%d/%d.%d of bound %d: part %d ran %d schedules and %d steps there, part %d ran %d and %d",
					r.Scenario, r.Mode, s.At, s.Choice, s.At2, s.Choice2, s.Bound, e.donePart, e.done.Schedules, e.done.Steps, k, s.Schedules, s.Steps)
			}
		}
	}
	for _, kk := range order {
		e := subs[kk]
		if e.done == nil {
			m.Schedules += e.most.Schedules
			m.Steps += e.most.Steps
			continue
		}
		if e.mostPart >= 0 && e.most.Schedules > e.done.Schedules {
			s := e.most
			return fmt.Errorf("explore: %s (%s): subtree %d.%d/%d.%d of bound %d: part %d, stopped, ran %d schedules there, more than the %d part %d ran to its end",
				m.Scenario, m.Mode, s.At, s.Choice, s.At2, s.Choice2, s.Bound, e.mostPart, s.Schedules, e.done.Schedules, e.donePart)
		}
		m.Schedules += e.done.Schedules
		m.Steps += e.done.Steps
	}
	return nil
}
