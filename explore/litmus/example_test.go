package litmus_test

import (
	"fmt"

	"github.com/wsched/wsched/explore/litmus"
)

// Message passing: T1 writes data and then sets a flag; T2 reads the flag
// and then the data. With relaxed accesses, T2 may see the flag set and
// the data still 0 (a=1 b=0); a release store of the flag read by an
// acquire load forbids that outcome.
func Example() {
	const rlx, rel, acq = litmus.Relaxed, litmus.Release, litmus.Acquire
	for _, flag := range [][2]litmus.Ordering{{rlx, rlx}, {rel, acq}} {
		mp := litmus.Test{
			Name: fmt.Sprintf("MP (flag stored %v, loaded %v)", flag[0], flag[1]),
			Threads: [][]litmus.Op{
				{litmus.Store("data", 1, rlx), litmus.Store("flag", 1, flag[0])},
				{litmus.Load("a", "flag", flag[1]), litmus.Load("b", "data", rlx)},
			},
		}
		outcomes, _ := mp.Outcomes()
		fmt.Printf("%s: %q\n", mp.Name, outcomes)
	}
	// Output:
	// MP (flag stored Relaxed, loaded Relaxed): ["a=0 b=0" "a=0 b=1" "a=1 b=0" "a=1 b=1"]
	// MP (flag stored Release, loaded Acquire): ["a=0 b=0" "a=0 b=1" "a=1 b=1"]
}

// Store buffering: each thread stores to its own location and loads the
// other's. Only seq_cst (here, a seq_cst fence between the store and the
// load in both threads) rules out that both loads read the initial 0.
func Example_storeBuffering() {
	const rlx = litmus.Relaxed
	for _, fenced := range []bool{false, true} {
		t1 := []litmus.Op{litmus.Store("x", 1, rlx), litmus.Load("a", "y", rlx)}
		t2 := []litmus.Op{litmus.Store("y", 1, rlx), litmus.Load("b", "x", rlx)}
		if fenced {
			t1 = []litmus.Op{t1[0], litmus.Fence(litmus.SeqCst), t1[1]}
			t2 = []litmus.Op{t2[0], litmus.Fence(litmus.SeqCst), t2[1]}
		}
		sb := litmus.Test{Name: "SB", Threads: [][]litmus.Op{t1, t2}}
		outcomes, executions := sb.Outcomes()
		fmt.Printf("seq_cst fences %v: %d executions, outcomes %q\n", fenced, executions, outcomes)
	}
	// Output:
	// seq_cst fences false: 20 executions, outcomes ["a=0 b=0" "a=0 b=1" "a=1 b=0" "a=1 b=1"]
	// seq_cst fences true: 56 executions, outcomes ["a=0 b=1" "a=1 b=0" "a=1 b=1"]
}

// Explain shows how an outcome comes about: the order the operations ran
// in and, for each read, the store it read.
func ExampleTest_Explain() {
	const rlx = litmus.Relaxed
	sb := litmus.Test{
		Name: "SB+rlx",
		Threads: [][]litmus.Op{
			{litmus.Store("x", 1, rlx), litmus.Load("a", "y", rlx)},
			{litmus.Store("y", 1, rlx), litmus.Load("b", "x", rlx)},
		},
	}
	ex, ok := sb.Explain("a=0 b=0")
	fmt.Println(ok)
	fmt.Println(ex)
	// Output:
	// true
	// SB+rlx: a=0 b=0
	//   1  T1  x.Store(1, Relaxed)
	//   2  T1  a = y.Load(Relaxed)                       reads 0 from the initial value
	//   3  T2  y.Store(1, Relaxed)
	//   4  T2  b = x.Load(Relaxed)                       reads 0 from the initial value (stale: a newer store exists)
}

// Write-to-read causality: T2 passes on the value it read from x by
// storing it to y (StoreReg) with release; T3 acquires y and then reads x.
// Once T3 sees the 1 that T2 read, it cannot read x older than T2 did, so
// a=1 b=1 c=0 never happens, although T1's store is relaxed.
func ExampleStoreReg() {
	const rlx, rel, acq = litmus.Relaxed, litmus.Release, litmus.Acquire
	wrc := litmus.Test{Name: "WRC", Threads: [][]litmus.Op{
		{litmus.Store("x", 1, rlx)},
		{litmus.Load("a", "x", rlx), litmus.StoreReg("y", "a", rel)},
		{litmus.Load("b", "y", acq), litmus.Load("c", "x", rlx)},
	}}
	outcomes, _ := wrc.Outcomes()
	fmt.Printf("%q\n", outcomes)
	// Output:
	// ["a=0 b=0 c=0" "a=0 b=0 c=1" "a=1 b=0 c=0" "a=1 b=0 c=1" "a=1 b=1 c=1"]
}
