package forkjoin_test

import (
	"fmt"

	"github.com/wsched/wsched/impl/forkjoin"
)

// fib computes Fibonacci numbers, forking both recursive calls with Join
// above a sequential cutoff.
func fib(w *forkjoin.Worker, n int) int {
	if n < 20 {
		return fibSeq(n)
	}
	var x, y int
	if err := w.Join(
		func(w *forkjoin.Worker) { x = fib(w, n-1) },
		func(w *forkjoin.Worker) { y = fib(w, n-2) },
	); err != nil {
		panic(err) // only on misuse: w is the worker running this code
	}
	return x + y
}

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

func Example() {
	pool, err := forkjoin.New(forkjoin.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer pool.Close()

	n, err := forkjoin.Do(pool, func(w *forkjoin.Worker) int { return fib(w, 30) })
	fmt.Println(n, err)
	// Output: 832040 <nil>
}

// A Scope waits for any number of spawned functions.
func ExampleWorker_Scope() {
	pool, _ := forkjoin.New(forkjoin.Config{Workers: 2})
	defer pool.Close()

	squares := make([]int, 5)
	err := pool.Run(func(w *forkjoin.Worker) {
		w.Scope(func(s *forkjoin.Scope) {
			for i := range squares {
				s.Spawn(func(*forkjoin.Scope) { squares[i] = i * i })
			}
		})
	})
	fmt.Println(squares, err)
	// Output: [0 1 4 9 16] <nil>
}

// A panic in a joined function comes back from Run as a *PanicError.
func ExamplePanicError() {
	pool, _ := forkjoin.New(forkjoin.Config{Workers: 2})
	defer pool.Close()

	err := pool.Run(func(w *forkjoin.Worker) {
		w.Join(
			func(*forkjoin.Worker) {},
			func(*forkjoin.Worker) { panic("boom") },
		)
	})
	fmt.Println(err)
	// Output: forkjoin: job panicked: boom
}
