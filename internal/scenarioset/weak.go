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
// it the task's, which the layer's processes share). The rest of the
// runtime scenarios pass in the weak mode too, but take longer: the
// monitor's two whole-runtime ones (protocol/monitor-idle*) take minutes
// (docs/explore.md has the counts), and the whole-runtime ones of
// explore/scenarios tens of minutes to hours (protocol/extra-retire-remote
// ran 100,000 of its 53 million schedules at 1 preemption in 4.6 minutes). WSCHED_EXPLORE_WEAK=1
// runs any of them by hand, and so does -run in the weak build.
//
// The weak build of explore/scenarios (its TestMain) runs these, with the
// reduced search, when go test is given no -run, so that go test -tags
// explore,weak ./explore/... ends within go test's ten minutes.
const WeakScenarios = "^TestExplore(Ring|Global(Queue|BatchIsAtomic)$|Deque|Slot|Task|RemoteSpawnOneWorker$|Rule2|MonitorPair|RetirePair|TurnPair|TimerPair|IdlePair|CloseStatePair|IdleAtClosePair|Pacing(Pair|Retiring)$|DrainPair|ExtraSlotsPair|YieldGoesBehindTheRing$|BusyWorkerYieldsEachTick$|Futex|ForkJoinPair|Lin)"
