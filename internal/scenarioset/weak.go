package scenarioset

// WeakScenarios selects (go test -run) the scenarios the weak layer runs in the explorer's
// weak-memory mode (-tags explore,weak): the ring, the global queue, the
// deque, the LIFO slot, the task state machine and a poll's Context on a
// bare runtime (task/*: Wake, Sleep, Go's spare records, a task taken
// twice), the runtime scenarios of
// the idle protocol's Dekker pairs, the pairs of impl/sched played alone
// (monitor/pair-*, retire/pair-*, turn/pair, timer/pair, slot/pair,
// shutdown/pair-close-state, -extra, shutdown/idle-at-close-*,
// monitor/pacing-grid, monitor/pacing-retiring, drain/pair-*, extra/slots-max1, extra/slots-shutdown), fairness/yield-behind-ring and
// fairness/busy-worker-yields (a yield between polls), the
// futex parker (park/futex*), the fork-join pool's pairs
// (forkjoin/pair-*, pair-goexit on a pool New started) (30 s on two cores) and the linearizability clients
// of the ring, the deque, the slot, the global queue and the task state
// machine (lin/*: every client up to N calls, every execution, each
// history checked against model/; docs/explore.md, "Every execution
// linearizable"; about 60 s of CPU measured on a loaded machine, 12 s of
// it the task's, which the layer's processes share), and the one-worker
// runtime scenarios that end at 1 preemption in a few seconds
// (runtime/wake-races-poll-1, sleep-1, go-recycling-1, panic,
// remote-spawn-one-worker-timed-park, protocol/shutdown-sweep: weakOneWorker
// in explore/scenarios), and at 1 with the state cache (weakAtOne)
// runtime/shutdown-races-go, shutdown-races-spawn, misuse/goexit-races-wake
// (the one weak-mode scenario that runs worker.afterGoexit),
// stranding/shutdown and extra-worker, 5 to 30 s of one core each. The
// rest of the runtime scenarios take longer in the weak mode, at 1, or do
// not end there in minutes: verify -long runs most of them
// (WeakLongScenarios; docs/explore.md, "Runtime scenarios in the weak
// mode"). WSCHED_EXPLORE_WEAK=1 runs any of them by hand, and so does -run
// in the weak build.
//
// The weak build of explore/scenarios (its TestMain) runs these, with the
// reduced search, when go test is given no -run, so that go test -tags
// explore,weak ./explore/... ends within go test's ten minutes.
const WeakScenarios = "^TestExplore(Ring|Global(Queue|BatchIsAtomic)$|Deque|Slot|Task|RemoteSpawnOneWorker(TimedPark)?$|WakeRacesPoll$|Sleep$|GoRecycling$|PanicReachesHandle$|ShutdownSweepsSlotAndRing$|ShutdownRacesGo$|ShutdownRacesSpawn$|GoexitRacesWake$|ShutdownWithBlockedPoll$|ExtraWorkerForStuckWorker$|Rule2|MonitorPair|RetirePair|TurnPair|TimerPair|IdlePair|CloseStatePair|IdleAtClosePair|Pacing(Pair|Retiring)$|DrainPair|ExtraSlotsPair|YieldGoesBehindTheRing$|BusyWorkerYieldsEachTick$|Futex|ForkJoinPair|Lin)"

// WeakLongScenarios selects the runtime scenarios that verify -long's weak
// layer runs beside WeakScenarios: protocol/timer-mirror,
// protocol/monitor-idle, monitor-idle-self-wake,
// runtime/shutdown-cancels-waiting, protocol/extra-retire-remote, -local,
// runtime/remote-spawn and remote-spawn-timed-park, stranding/batch-mate
// and timer, runtime/child-while-parent-blocks and go-tree,
// each at 1 preemption with the plain search and
// the state cache (weakLongAtOne and weakSearch in explore/scenarios),
// where each ends in 10 s to about 2 minutes of one core: too long
// together for the weak layer of every run, and none of them ends at 2 in
// minutes; and stranding/lifo-slot and lifo-slot-after-idle, the same
// way, which end at 1 in about 20 and 13 minutes of one core (8,355,845
// and 4,740,848 schedules) since a full table of the cache takes new
// states. runtime/wake-races-poll-2 (about 2 minutes at 1), go-recycling-2
// (about 4.5) and sleep-2 run there too, at 1 with the cache, though
// their tests are WeakScenarios' (TestExploreWakeRacesPoll,
// TestExploreGoRecycling and TestExploreSleep, whose wake-races-poll-1,
// go-recycling-1 and sleep-1 the weak layer runs).
const WeakLongScenarios = "^TestExplore(BatchMateOfBlockedPoll|TimerMirror|MonitorIdleAgainst(Wake|SelfWake)|ShutdownCancelsWaiting|ExtraRetireAgainst(Remote|Local)Spawn|RemoteSpawn|ChildRunsWhileParentBlocks|GoTree|TimerDuringBlockedPoll|LIFOBehindBlockedPoll(AfterIdle)?)$"

// WeakLongFirst are the tests that hold the longest searches of verify
// -long's weak layer, longest first: stranding/lifo-slot and
// lifo-slot-after-idle (about 20 and 13 minutes of one core),
// go-recycling-2 (about 4.5), remote-spawn-timed-park and remote-spawn
// (2.0 and 1.3), wake-races-poll-2 (about 2). Each of the
// layer's processes runs them, one go test -run after the other, before
// the layer's whole command, so that they start at once rather than where
// the source order reaches them: go-recycling-2, whose test comes after
// the other two's, kept one process busy 14 minutes after the other had
// ended. The claims (explore.ClaimsEnv) still run each scenario once, in
// whichever process gets there first.
var WeakLongFirst = []string{"^TestExploreLIFOBehindBlockedPoll$", "^TestExploreLIFOBehindBlockedPollAfterIdle$", "^TestExploreGoRecycling$", "^TestExploreRemoteSpawn$", "^TestExploreWakeRacesPoll$"}
