//go:build race

package sched

import "testing"

// The race build's note of who released a task's edge (raceseen_race.go):
// a poll's start may skip its acquire only when every release since the
// last poll's start was its own worker's.
func TestRaceSeenSkipsOnlyOwnReleases(t *testing.T) {
	w0, w1 := &worker{index: 0}, &worker{index: 1}
	extra := &worker{index: 2, extra: true}
	cases := []struct {
		name  string
		marks func(tk *task)
		by    *worker
		skip  bool
	}{
		{"spawned and polled by one worker", func(tk *task) { tk.raceMark(w0.raceID()) }, w0, true},
		{"spawned by another worker", func(tk *task) { tk.raceMark(w1.raceID()) }, w0, false},
		{"own poll's end, then own spawn of nothing", func(tk *task) { tk.raceMark(w0.raceID()); tk.raceMark(w0.raceID()) }, w0, true},
		{"own poll's end, then a wake", func(tk *task) { tk.raceMark(w0.raceID()); tk.raceMark(raceByMany) }, w0, false},
		{"a wake, then own poll's end", func(tk *task) { tk.raceMark(raceByMany); tk.raceMark(w0.raceID()) }, w0, false},
		{"two workers' releases", func(tk *task) { tk.raceMark(w1.raceID()); tk.raceMark(w0.raceID()) }, w0, false},
		{"an extra worker's own releases", func(tk *task) { tk.raceMark(extra.raceID()) }, extra, false},
		{"a remote spawn, taken from the global queue", func(tk *task) { tk.raceMark(raceByGlobal); w0.raceTookGlobal(tk) }, w0, true},
		{"a remote spawn, taken by one worker, polled by a thief", func(tk *task) { tk.raceMark(raceByGlobal); w1.raceTookGlobal(tk) }, w0, false},
		{"a remote spawn not taken from the global queue", func(tk *task) { tk.raceMark(raceByGlobal) }, w0, false},
		{"a wake before the take of the global queue", func(tk *task) { tk.raceMark(raceByGlobal); tk.raceMark(raceByMany); w0.raceTookGlobal(tk) }, w0, false},
		{"a woken task taken from the global queue", func(tk *task) { tk.raceMark(w1.raceID()); tk.raceMark(raceByMany); w0.raceTookGlobal(tk) }, w0, false},
	}
	for _, c := range cases {
		var tk task
		c.marks(&tk)
		if got := c.by.raceOwnEdge(&tk); got != c.skip {
			t.Errorf("%s: the poll skips its acquire: %v, want %v", c.name, got, c.skip)
		}
		if tk.race.by.LoadAcquire() != raceByNone {
			t.Errorf("%s: after the poll's start the note is %d, want none", c.name, tk.race.by.LoadAcquire())
		}
	}
}
