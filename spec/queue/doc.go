// Package queue is the reference twin of impl/queue: the per-worker ring,
// the global injection queue and the LIFO slot, each guarded by one mutex.
//
// The API, the bounds (Capacity, MaxSteal) and the policies are the ones of
// impl/queue:
//
//   - Ring holds at most Capacity tasks. Its owner pushes and pops (oldest
//     first); other workers steal the oldest half into their own ring.
//   - A push into a full ring moves the oldest MaxSteal tasks to the overflow
//     queue in one PushBatch call, then stores the new task.
//   - A steal takes ceil(n/2) of the n queued tasks, at most MaxSteal, and
//     refuses (takes nothing) when the thief's ring has no room for them.
//
// Because every operation holds the ring's lock from start to end, a steal is
// never "in flight" while another operation runs. So, unlike impl/queue, a
// push here never sends only its own task to overflow, and a steal never
// fails while the victim has tasks and the thief has room.
//
// This package is for reading and for testing. It is not fast.
package queue
