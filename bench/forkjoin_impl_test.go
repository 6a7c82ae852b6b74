package bench

import (
	"testing"

	"github.com/wsched/wsched/impl/forkjoin"
)

// forkJoinPeers is impl/forkjoin with numWorkers workers and its default configuration: Join
// offers the second branch to thieves on the worker's deque and runs the first.
func forkJoinPeers() []forkJoinPeer {
	return []forkJoinPeer{{"forkjoin", func(b *testing.B) {
		pool, err := forkjoin.New(forkjoin.Config{Workers: numWorkers})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { must(pool.Close()) }()
		defer watchdog(b, nil)()
		measure(b, fibJoins, func() {
			var got int
			must(pool.Run(func(w *forkjoin.Worker) { got = fibForkJoin(w, fibN) }))
			checkFib(got)
		})
	}}}
}

func fibForkJoin(w *forkjoin.Worker, n int) int {
	if n < 2 {
		return n
	}
	var x, y int
	must(w.Join(
		func(w *forkjoin.Worker) { x = fibForkJoin(w, n-1) },
		func(w *forkjoin.Worker) { y = fibForkJoin(w, n-2) },
	))
	return x + y
}
