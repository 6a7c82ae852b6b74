package weak_test

import (
	"fmt"

	"github.com/wsched/wsched/explore/internal/weak"
)

// Message passing with a release store and a relaxed load: the reader may
// see the flag and still read the old data, one stale read. With an
// acquire load the stale data would not be offered.
func Example() {
	m := weak.New(weak.Config{})
	data := m.NewAtomic("data", 0)
	flag := m.NewAtomic("flag", false)
	writer, reader := m.Go(0), m.Go(0)

	m.Store(writer, data, weak.Relaxed, 42)
	m.Store(writer, flag, weak.Release, true)

	f := m.Load(reader, flag, weak.Relaxed, 0) // the latest store: true
	cs := m.Candidates(reader, data, weak.Relaxed)
	for _, c := range cs {
		fmt.Printf("data may read %v (age %d)\n", c.Value, c.Age)
	}
	d := m.Load(reader, data, weak.Relaxed, len(cs)-1) // the oldest
	fmt.Println("flag", f, "data", d, "stale reads", m.StaleReads())
	// Output:
	// data may read 42 (age 0)
	// data may read 0 (age 1)
	// flag true data 0 stale reads 1
}
