package fastrand

import "github.com/wsched/wsched/explore/sync"

// golden is 2^64 divided by the golden ratio, rounded to odd. Multiplying
// the worker index by it spreads neighbouring indices across the 64-bit
// seed space.
const golden = 0x9E3779B97F4A7C15

// Rand is a xorshift64+ generator. The zero value is not usable: make one
// with New or NewSeeded. Not safe for concurrent use.
type Rand struct {
	one, two uint32
}

// New returns a generator for worker index, seeded from the index and the
// clock, so workers of one runtime, and runtimes started at different
// times, draw different sequences.
func New(index int) Rand {
	return NewSeeded(sync.Seed() + uint64(index)*golden)
}

// NewSeeded returns a generator with a fixed seed, for reproducible runs.
// Every seed, 0 included, gives a valid (non-zero) state.
func NewSeeded(seed uint64) Rand {
	s := mix(seed)
	r := Rand{one: uint32(s >> 32), two: uint32(s)}
	if r.one == 0 && r.two == 0 {
		// xorshift stays at zero for ever from an all-zero state.
		r.two = 1
	}
	return r
}

// mix is the splitmix64 finaliser: it makes seeds that differ in a few low
// bits (a clock tick, a worker index) differ in about half of all bits, so
// the first draws of two workers are unrelated.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Uint32 returns the next 32-bit draw.
func (r *Rand) Uint32() uint32 {
	s1, s0 := r.one, r.two
	s1 ^= s1 << 17
	s1 = s1 ^ s0 ^ s1>>7 ^ s0>>16
	r.one, r.two = s0, s1
	return s0 + s1
}

// N returns a draw in [0, n): the high half of the 64-bit product of a
// 32-bit draw and n (Lemire's reduction). n must be positive; N(0)
// returns 0.
func (r *Rand) N(n uint32) uint32 {
	return uint32(uint64(r.Uint32()) * uint64(n) >> 32)
}
