package park

import (
	"testing"
)

// BenchmarkRoundTrip measures one park/unpark round trip between two
// goroutines: A unparks B, B wakes and unparks A, A wakes. ns/op is one full
// round trip (two wakes). This is the number that picks ParkerDefault.
func BenchmarkRoundTrip(b *testing.B) {
	for _, m := range parkers() {
		b.Run(m.name, func(b *testing.B) {
			p1, p2 := m.new(b), m.new(b)
			done := make(chan struct{})
			n := b.N
			go func() {
				for i := 0; i < n; i++ {
					p1.Park(0)
					p2.Unpark()
				}
				close(done)
			}()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < n; i++ {
				p1.Unpark()
				p2.Park(0)
			}
			<-done
		})
	}
}

// BenchmarkUnparkPark measures the uncontended cost: Unpark then Park on one
// goroutine (a token already present, no sleep).
func BenchmarkUnparkPark(b *testing.B) {
	for _, m := range parkers() {
		b.Run(m.name, func(b *testing.B) {
			p := m.new(b)
			b.ReportAllocs()
			for b.Loop() {
				p.Unpark()
				p.Park(0)
			}
		})
	}
}

// BenchmarkParkTimeout measures a timed park that times out at once-ish
// (1ns): the timer path, which must not allocate after the first park.
func BenchmarkParkTimeout(b *testing.B) {
	for _, m := range parkers() {
		b.Run(m.name, func(b *testing.B) {
			p := m.new(b)
			p.Park(1) // first park may create the timer
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.Park(1)
			}
		})
	}
}
