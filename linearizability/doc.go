// Package linearizability records concurrent histories of impl/ and spec/
// data structures and checks them with porcupine against the sequential
// models of package model.
//
// A test runs short rounds: a few goroutines run scripts drawn before they
// start, every call is stamped at its start and its end with a logical
// clock (one atomic counter), and the round ends at a quiescent point with
// a drain that takes every task out, so a lost or duplicated task shows in
// the history itself. Each round is its own history, a few hundred to a
// few thousand operations, far below the size where porcupine's memory
// grows out of hand. The same rounds run against impl/ and spec/: spec/
// passing is what shows a check is not wrong.
//
// The queue checks (queue_test.go, global_test.go) model the rings and the
// global queue as one state (model.QueueModel in its concurrent mode): an
// owner pushing through overflow into the global queue, and thieves
// stealing from it and from each other. A push's calls into its Injector
// are recorded as operations of their own, nested in the push, so the
// model can check that exactly the oldest half reached the global queue.
// A Push or Steal that overlapped another operation on a ring it touches is
// marked Contended; only those may show the outcomes of a race (see the
// model's comment).
//
// The slot check (slot.go, slot_test.go) models a worker's LIFO slot
// (model.SlotModel): the owner putting and taking while two or three
// thieves steal and look, then a drain by the owner. No slot call has an
// outcome that only a race may show, so nothing is marked Contended. A
// slot whose steal is a load and a store instead of one exchange must be
// found not linearizable (TestSlotCheckerFindsBrokenSteal): the check's
// own test that it can fail.
//
// The queue checks take about 20 seconds under -race on two cores, the
// slot checks about 3. WSCHED_LONG=k runs k times as many rounds;
// WSCHED_SEED fixes the scripts (not the interleavings, which no seed can
// fix). Building with -tags chaos turns on impl/'s yield points, which make
// the rare interleavings common (impl/queue.Slot has none: each of its
// calls is one exchange, or a load and then one exchange).
//
// # Reading a failure
//
// A failing round reports porcupine's verdict (Illegal: no order of the
// operations, consistent with real time, is accepted by the model;
// Unknown: porcupine ran out of time, treated as a failure), the seed, and
// the path of an HTML file under os.TempDir(). Open that file in a browser.
// Each row is a goroutine (client 0 is the owner of ring 0, client i the
// thief owning ring i), each bar one call from its call stamp to its return
// stamp, labelled with the call and its result, for example
// "ring0.StealInto(ring2) -> (17, 4) [contended]". The checker's longest
// linearizable prefix is drawn over the history with its linearization
// points; hovering a bar shows the model state after it, clicking pins it,
// and the calls that could come next but that the model refuses are marked
// as illegal. The failure is just past the end of that prefix:
// the message repeats the state at that point and lists the calls that
// could have come next in real time, none of which the model accepts
// there. Compare each with the state: a task returned that is not the
// oldest, a steal larger than half, a push that overflowed on a ring that
// was not full, a length that does not match. Operations marked (overflow
// of ringN) are a push's hand-off to the global queue, nested in the push.
//
// What this package is not: a stress test. It checks the order of results,
// not throughput or progress; a call that blocks for ever hangs the test.
package linearizability
