// Package queuecheck drives impl/queue and spec/queue through one small
// interface, Target, so that the same checks run against both: the rapid
// state machine in this package (used by the rapid tests of both packages)
// and the concurrent histories of package linearizability.
//
// Targets address rings by index and tasks by positive int id, the way
// package model does, so every result can be handed to the model as is.
package queuecheck
