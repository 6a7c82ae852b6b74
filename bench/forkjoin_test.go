package bench

import (
	"sync"
	"testing"
)

// fibN is the argument of the fork-join benchmark. There is no sequential cut-off: every call
// with n >= 2 forks, so the benchmark measures the cost of a fork and a join.
const fibN = 20

// fibJoins is the number of forks fib(fibN) performs, the tasks of one iteration.
var fibJoins = func() int {
	j := [2]int{0, 0} // joins of fib(n-2), fib(n-1)
	for n := 2; n <= fibN; n++ {
		j = [2]int{j[1], j[0] + j[1] + 1}
	}
	return j[1]
}()

// fibWant is fib(fibN), checked after every run.
var fibWant = func() int {
	a, b := 0, 1
	for range fibN {
		a, b = b, a+b
	}
	return a
}()

var fibSink int

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

func fibGoroutines(n int) int {
	if n < 2 {
		return n
	}
	var a int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		a = fibGoroutines(n - 1)
		wg.Done()
	}()
	b := fibGoroutines(n - 2)
	wg.Wait()
	return a + b
}

func checkFib(got int) {
	if got != fibWant {
		panic("wrong Fibonacci number")
	}
	fibSink = got
}

// BenchmarkForkJoinFib computes fib(fibN) by forking both branches at every level.
// ns/task is per fork. The sequential row is the same recursion with no fork at all.
func BenchmarkForkJoinFib(b *testing.B) {
	b.Run("peer=sequential", func(b *testing.B) {
		measure(b, fibJoins, func() { checkFib(fibSeq(fibN)) })
	})
	b.Run("peer=goroutines", func(b *testing.B) {
		measure(b, fibJoins, func() { checkFib(fibGoroutines(fibN)) })
	})
	for _, p := range forkJoinPeers() {
		b.Run("peer="+p.name, p.run)
	}
}

// forkJoinPeer is a fork-join runtime's row of BenchmarkForkJoinFib.
type forkJoinPeer struct {
	name string
	run  func(b *testing.B)
}
