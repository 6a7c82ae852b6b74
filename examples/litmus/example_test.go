package litmus_test

import (
	"fmt"

	"github.com/wsched/wsched/explore/litmus"
)

// A release sequence: T1 writes data and then adds 1 to a counter with
// release; T2 adds 1 to the counter, relaxed; T3 reads the counter with
// acquire and then the data. When T3 reads 2 (T2's add, which read T1's),
// does it see the data? C++20 says yes: an RMW continues the release
// sequence of the store it read, so T3's acquire synchronises with T1.
// A plain relaxed store in T2 instead of the add would not (RS+store in
// explore/internal/weak/litmus_test.go). Stale data is still possible when T3 reads
// 1 written by T2's add before T1's (r1=1 r2=0 c=1 d=0): that add heads no
// release sequence of T1's.
func Example_releaseSequence() {
	rs := litmus.Test{
		Name: "RS+rmw",
		Threads: [][]litmus.Op{
			{litmus.Store("data", 1, litmus.Relaxed), litmus.Add("r1", "count", 1, litmus.Release)},
			{litmus.Add("r2", "count", 1, litmus.Relaxed)},
			{litmus.Load("c", "count", litmus.Acquire), litmus.Load("d", "data", litmus.Relaxed)},
		},
	}
	outcomes, _ := rs.Outcomes()
	for _, o := range outcomes {
		fmt.Println(o)
	}
	_, ok := rs.Explain("r1=0 r2=1 c=2 d=0")
	fmt.Println("T3 reads 2 and stale data:", ok)
	ex, _ := rs.Explain("r1=0 r2=1 c=2 d=1")
	fmt.Println(ex)
	// Output:
	// r1=0 r2=1 c=0 d=0
	// r1=0 r2=1 c=0 d=1
	// r1=0 r2=1 c=1 d=1
	// r1=0 r2=1 c=2 d=1
	// r1=1 r2=0 c=0 d=0
	// r1=1 r2=0 c=0 d=1
	// r1=1 r2=0 c=1 d=0
	// r1=1 r2=0 c=1 d=1
	// r1=1 r2=0 c=2 d=1
	// T3 reads 2 and stale data: false
	// RS+rmw: r1=0 r2=1 c=2 d=1
	//   1  T1  data.Store(1, Relaxed)
	//   2  T1  r1 = count.Add(1, Release)                reads 0 from the initial value
	//   3  T2  r2 = count.Add(1, Relaxed)                reads 1 from step 2
	//   4  T3  c = count.Load(Acquire)                   reads 2 from step 3
	//   5  T3  d = data.Load(Relaxed)                    reads 1 from step 1
}
