package fastrand_test

import (
	"fmt"

	"github.com/wsched/wsched/impl/fastrand"
)

func ExampleRand_N() {
	r := fastrand.NewSeeded(2024) // fixed seed: the same draws every run
	const workers = 4
	self := uint32(1)
	// Pick a random starting victim, then walk the others in order.
	start := r.N(workers)
	for i := range uint32(workers) {
		if v := (start + i) % workers; v != self {
			_ = v // try to steal from worker v
		}
	}
	fmt.Println(start < workers)
	// Output: true
}
