// Package spec holds the reference implementations of wsched: for each
// package under impl/, a plain twin under spec/ with the same API, written
// with one mutex and ordinary slices and maps.
//
// Read spec/ first. Each type here is short enough to check by eye, so it
// says what the production code must do without the atomics that make the
// production code hard to read. The tests use spec/ as an oracle: the same
// sequential and concurrent checks run against impl/ and spec/, and a check
// that fails on spec/ is a wrong check, not a wrong implementation.
//
// What spec/ is not: fast, or a drop-in for production. Its locks serialize
// everything that impl/ lets run in parallel, so it never shows the races
// (a steal in flight, a lost claim) that impl/ must survive; where the
// contract allows an outcome only under such a race, spec/ never produces it.
package spec
