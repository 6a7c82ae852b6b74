package main

import . "github.com/wsched/wsched/explore/litmus"

// A shape is a catalog entry: the test, one line on what it shows, and the
// outcome the question is about.
type shape struct {
	test  Test
	about string
	watch string
}

var catalog = []shape{
	// Message passing: data, then a flag; the reader checks the flag,
	// then reads the data.
	{mp("MP+rlx", Relaxed, Relaxed, nil, nil), "message passing, every access relaxed", "a=1 b=0"},
	{mp("MP+rel+rlx", Release, Relaxed, nil, nil), "a release store read by a relaxed load", "a=1 b=0"},
	{mp("MP+rel+acq", Release, Acquire, nil, nil), "a release store read by an acquire load", "a=1 b=0"},
	{mp("MP+fences", Relaxed, Relaxed, []Op{Fence(Release)}, []Op{Fence(Acquire)}), "relaxed accesses between a release fence and an acquire fence", "a=1 b=0"},
	{mp("MP+fence+rlx", Relaxed, Relaxed, []Op{Fence(Release)}, nil), "a release fence with nothing on the reader's side", "a=1 b=0"},

	// Store buffering: each thread stores its own flag, then loads the
	// other's (Dekker's mutual exclusion, the shape of every "I announce,
	// then I look" protocol).
	{sb("SB+rlx", Relaxed, Relaxed, nil), "store buffering, every access relaxed", "a=0 b=0"},
	{sb("SB+rel+acq", Release, Acquire, nil), "store buffering with release stores and acquire loads", "a=0 b=0"},
	{sb("SB+sc", SeqCst, SeqCst, nil), "store buffering, every access seq_cst", "a=0 b=0"},
	{sb("SB+scfences", Relaxed, Relaxed, []Op{Fence(SeqCst)}), "relaxed accesses with a seq_cst fence between store and load in both threads", "a=0 b=0"},
	{sb("SB+acqrelfences", Relaxed, Relaxed, []Op{Fence(AcqRel)}), "the same with acq_rel fences", "a=0 b=0"},
	{Test{Name: "SB+scfence+rlx", Threads: [][]Op{
		{Store("x", 1, Relaxed), Fence(SeqCst), Load("a", "y", Relaxed)},
		{Store("y", 1, Relaxed), Load("b", "x", Relaxed)},
	}}, "a seq_cst fence in one thread only", "a=0 b=0"},

	// A plain (non-atomic) cell published by a flag: the race the weak
	// mode reports in impl/queue's ring.
	{Test{Name: "Race+rlx", Threads: [][]Op{
		{Write("d"), Store("f", 1, Relaxed)},
		{Load("a", "f", Relaxed), Read("d").When("a", 1)},
	}}, "a plain cell written, then a relaxed flag; read if the flag is seen", "a=1 race"},
	{Test{Name: "Race+rel+acq", Threads: [][]Op{
		{Write("d"), Store("f", 1, Release)},
		{Load("a", "f", Acquire), Read("d").When("a", 1)},
	}}, "the same with a release store and an acquire load", "a=1 race"},

	// A compare-and-swap claims; exactly one of two wins.
	{Test{Name: "CAS+claim", Threads: [][]Op{
		{CAS("a", "x", 0, 1, Relaxed, Relaxed)},
		{CAS("b", "x", 0, 2, Relaxed, Relaxed)},
	}, Final: []string{"x"}}, "two threads claim x with a CAS from 0: one wins, whatever the orderings", "a=0 b=0 x=1"},
	{Test{Name: "Claim+load-store", Threads: [][]Op{
		{Load("a", "x", SeqCst), Store("x", 1, SeqCst).When("a", 0)},
		{Load("b", "x", SeqCst), Store("x", 2, SeqCst).When("b", 0)},
	}, Final: []string{"x"}}, "the same claim by a load, then a store: both may read 0 and store (a=0 b=0), even seq_cst", "a=0 b=0 x=2"},
}

func mp(name string, storeFlag, loadFlag Ordering, between1, between2 []Op) Test {
	t1 := append(append([]Op{Store("data", 1, Relaxed)}, between1...), Store("flag", 1, storeFlag))
	t2 := append(append([]Op{Load("a", "flag", loadFlag)}, between2...), Load("b", "data", Relaxed))
	return Test{Name: name, Threads: [][]Op{t1, t2}}
}

func sb(name string, store, load Ordering, between []Op) Test {
	t1 := append(append([]Op{Store("x", 1, store)}, between...), Load("a", "y", load))
	t2 := append(append([]Op{Store("y", 1, store)}, between...), Load("b", "x", load))
	return Test{Name: name, Threads: [][]Op{t1, t2}}
}
