//go:build !race

package sched

import "github.com/wsched/wsched/impl/queue"

// The scheduler's queues, by the names the rest of the package uses. In
// every build but the race detector's they are impl/queue's types
// themselves; queuetypes_race.go says why the race build names them apart.
type (
	taskRing   = queue.Ring[task]
	taskSlot   = queue.Slot[task]
	taskGlobal = queue.Global[task]
)
