//go:build !race

package forkjoin

import "github.com/wsched/wsched/impl/deque"

// jobDeque is a worker's deque, by the name the rest of the package uses:
// impl/deque's type itself in every build but the race detector's
// (dequetype_race.go says why that one names it apart).
type jobDeque = deque.Deque[job]
