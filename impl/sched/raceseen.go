//go:build !race

package sched

// raceSeen is the race build's note of who released a task's edge
// (raceseen_race.go); without the detector it is empty and every method
// below inlines to nothing (cmd/samecode: the machine code is unchanged).
type raceSeen struct{}

func (w *worker) raceSpawned(*task)    {}
func (rt *Runtime) raceRemote(*task)   {}
func (w *worker) raceTookGlobal(*task) {}
func (w *worker) raceBeforePoll(*task) {}
func (w *worker) raceAfterPoll(*task)  {}
func (t *task) raceWoken()             {}
func (w *worker) raceWake(*task)       {}
