// Package queuecheck drives impl/queue and spec/queue through small
// interfaces, so that the same checks run against both: Target for the
// rings and the global queue, Slot for a worker's LIFO slot. The rapid
// state machines in this package (RingMachine, SlotMachine) are used by
// the rapid tests of both packages, and the targets by the concurrent
// histories of package linearizability.
//
// Both address tasks by positive int id, and a Target its rings by index,
// the way package model does, so every result can be handed to the model
// as is.
package queuecheck
