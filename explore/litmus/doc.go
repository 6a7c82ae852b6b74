// Package litmus runs litmus tests against the weak-memory model of
// explore/internal/weak: small programs of two to four threads, each a few atomic
// loads, stores, read-modify-writes and fences with C11 orderings, whose
// every execution the package enumerates.
//
// A litmus test asks one question: can these reads return these values
// together? Message passing (MP) asks whether a reader that saw a flag set
// can still read the data as it was before; store buffering (SB) asks
// whether two threads that each store and then load the other's location
// can both read the old value. Which outcomes the answer allows depends on
// the orderings, and that dependence is what a memory model is.
//
// Writing one:
//
//	sb := litmus.Test{
//		Name: "SB+rlx",
//		Threads: [][]litmus.Op{
//			{litmus.Store("x", 1, litmus.Relaxed), litmus.Load("a", "y", litmus.Relaxed)},
//			{litmus.Store("y", 1, litmus.Relaxed), litmus.Load("b", "x", litmus.Relaxed)},
//		},
//	}
//	outcomes, executions := sb.Outcomes() // ["a=0 b=0" "a=0 b=1" "a=1 b=0" "a=1 b=1"], 20
//	ex, ok := sb.Explain("a=0 b=0")       // one execution producing it, step by step
//
// Every location starts at 0. An outcome is the registers' values in the
// order the registers first appear in the threads, then the final value of
// each location named in Test.Final, then "race" if two accesses to a
// plain cell (Read, Write) were not ordered by happens-before.
//
// What it enumerates: every interleaving of the threads' operations, at
// every read (a load, Add or CAS) every store the model lets it read, and
// at every store every place in modification order the model allows. The
// model has no bound on stale reads or history here, so the outcomes are
// exactly what explore/internal/weak produces. explore/internal/weak's litmus suite runs on
// this runner and compares each test's outcomes, set for set, with those
// of the RC11 oracle (explore/internal/weak/rc11); explore/internal/weak's doc.go, "What is
// not", says where RC11 itself allows fewer than C++20 (load buffering).
//
// What it is not: a checker of Go code. The explorer (package explore, in
// its weak mode) runs the real code of impl/ against the same model;
// litmus tests are the shapes that code is made of, run alone.
package litmus
