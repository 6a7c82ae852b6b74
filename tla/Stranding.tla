----------------------------- MODULE Stranding -----------------------------
(***************************************************************************)
(* Stranding: can a queued task wait for ever behind a poll that does not  *)
(* return while some worker could run it?                                  *)
(*                                                                         *)
(* The blocking tasks B1..Bk each block inside their poll until task P has *)
(* run (a consumer receiving from a channel whose producer is queued). A   *)
(* worker inside such a poll is "polling"; it comes back only once P is    *)
(* done. The property is liveness: every task eventually runs.            *)
(*                                                                         *)
(* The model is the design, not the code: a queue is a kind of place, a   *)
(* steal or a batch take is one step, the global queue and the rings are  *)
(* unordered (any of their tasks may come out first), and the idle        *)
(* protocol is reduced to its effect on parked workers (IdleProtocol.tla  *)
(* checks that one, and the explorer runs the code's own interleavings).  *)
(* The rest of a small batch is not announced, as in impl/sched           *)
(* (quietBatch), so only the monitor wakes a parked worker for it. Two     *)
(* shapes of the hazard:                                                   *)
(*   Shape = "batch": the tasks come from outside; a worker takes them all *)
(*     from the global queue in one batch and polls one of them; the rest *)
(*     goes to its private buffer (PrivateBuffer) or to its ring.          *)
(*   Shape = "lifo": the blockers come from outside; a blocker's poll      *)
(*     first wakes P (into its worker's LIFO slot), then blocks.           *)
(*                                                                         *)
(* Design switches (the .cfg files):                                       *)
(*   PrivateBuffer  the rest of a global batch is private to its worker    *)
(*   SlotStealable  thieves take the LIFO slot of a worker flagged stuck   *)
(*   Monitor        the monitor flags workers inside a poll, wakes a       *)
(*                  parked worker or starts an extra worker               *)
(*   ExtraMax       how many extra workers the monitor may run at once     *)
(*   BusyOther      the last worker always has work of its own: it never   *)
(*                  parks, and looks elsewhere only at its fairness turn   *)
(*   FairnessSteal  at that turn it also takes from stuck workers' queues  *)
(*                                                                         *)
(* docs/tla.md maps every action to the Go code and explains each .cfg.    *)
(*                                                                         *)
(* The code's grain (switches defined below, all FALSE unless a .cfg sets *)
(* them; StrandCode.cfg sets them all, TraceStranding checks logs of      *)
(* impl/sched against them):                                               *)
(*   Arrivals      the tasks come from outside one by one (Arrive), while *)
(*                 every regular worker starts looking: Init's hazard is  *)
(*                 one of the states this reaches                          *)
(*   NotifyWakes   a notify wakes a parked worker, at any time, and      *)
(*                 surely while a task waits in the global queue or a    *)
(*                 ring (the idle protocol; IdleProtocol.tla checks how)  *)
(*   WakeApart     a blocker wakes P in a step of its own during its poll *)
(*                 (Shape "spawn": it spawns P into its ring)              *)
(*   Repolls       P (Shape "lifo") comes from outside and its first poll *)
(*                 returns pending, unless a blocker woke it during that  *)
(*                 poll: then it may return ready, or pending and go to   *)
(*                 the back of its worker's ring; a pending P waits       *)
(*                 nowhere until a blocker wakes it                        *)
(*   EffectInPoll  a blocker may return once P's poll has begun (P's      *)
(*                 effect, e.g. a send, is inside its poll)               *)
(*   AnyOrder      a worker takes from any place it may take from: the    *)
(*                 code looks at its queues one after another, not at    *)
(*                 once, and serves the global queue first at its turn    *)
(*   PartialBatch  a take of the global queue leaves part of it there    *)
(*   RestApart     a global batch's rest is in its worker's hands, seen   *)
(*                 by nobody, until it pushes each into its ring         *)
(*                 (PushRest), before the poll returns                    *)
(*   LooseMonitor  the monitor's steps one by one: flag a worker that is  *)
(*                 not resting (the code flags by elapsed time), or any  *)
(*                 worker on a stale reading of its tick count; unflag,  *)
(*                 wake a parked worker or start an extra one while one  *)
(*                 is flagged and a task waits (the code asks the idle    *)
(*                 protocol's searchers, not who looks)                    *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    N,              \* regular workers
    ExtraMax,       \* extra workers the monitor may run at once
    K,              \* blocking tasks (1 to 4)
    Shape,          \* "batch" or "lifo"
    PrivateBuffer, SlotStealable, Monitor, BusyOther, FairnessSteal

ASSUME K \in 1..4 /\ N \in 1..3 /\ ExtraMax \in Nat /\ Shape \in {"batch", "lifo", "spawn"}

\* The code's grain (see the head comment); a .cfg overrides them.
Arrivals == FALSE
NotifyWakes == FALSE
WakeApart == FALSE
Repolls == FALSE
EffectInPoll == FALSE
AnyOrder == FALSE
PartialBatch == FALSE
LooseMonitor == FALSE
RestApart == FALSE

W == 1..N                       \* regular workers
X == N+1..N+ExtraMax            \* extra worker slots
All == W \cup X
Blockers == {<<"B1", "B2", "B3", "B4">>[i] : i \in 1..K}
Tasks == Blockers \cup {"P"}

\* Where a task is: a kind of place and, for a worker's places, the worker.
\* Nowhere: P before a blocker wakes it (Shape "lifo").
Place(kind, w) == [k |-> kind, w |-> w]
Nowhere == Place("nowhere", 0)
Global == Place("global", 0)
Done == Place("done", 0)
Outside == Place("outside", 0)  \* not spawned yet (Arrivals)
\* "runw": being polled, and woken during the poll (Repolls)
Places == {Nowhere, Global, Done, Outside}
          \cup {Place(kind, w) : kind \in {"ring", "buf", "lifo", "run", "runw", "hand"}, w \in All}

\* P's polls: two when its first returns pending (Repolls, Shape "lifo").
PFirstPending == Repolls /\ Shape = "lifo"
MaxPolls(t) == IF t = "P" /\ PFirstPending THEN 2 ELSE 1

VARIABLES
    loc,    \* [Tasks -> Places]: every task is in exactly one place
    ws,     \* [All -> {"parked", "looking", "polling", "retired"}]
    stuck,  \* [All -> BOOLEAN], the monitor's flags
    runs,   \* [Tasks -> Nat], polls begun, for the exactly-once invariant
    monSaw, \* the loose monitor saw a task wait with a worker flagged (LooseMonitor)
    flagPoll \* [All -> BOOLEAN], flagged inside its current poll (LooseMonitor)

aux == <<monSaw, flagPoll>>   \* only LooseMonitor's steps change them
vars == <<loc, ws, stuck, runs, monSaw, flagPoll>>

Busy(w) == BusyOther /\ w = N    \* the worker that always has work of its own

Init ==
    /\ loc = [t \in Tasks |-> IF t = "P" /\ Shape # "batch" /\ ~PFirstPending THEN Nowhere
                              ELSE IF Arrivals THEN Outside ELSE Global]
    \* Worker 1 is about to take the tasks; the others sleep with nobody
    \* about to wake them (the busy worker runs its own work). Go reaches
    \* this, up to the order of worker 1's take and worker 2's park: worker
    \* 1, not a searcher, finds the tasks in the global queue before it
    \* would steal (no Rule 2 notify follows), and worker 2's park-time
    \* re-check comes after worker 1's PopBatch and before anything is
    \* where it could be taken (a batch's rest in the ring, P in the slot).
    \* Extra worker slots are free.
    /\ ws = [w \in All |-> IF w = 1 \/ Busy(w) \/ (Arrivals /\ w \in W) THEN "looking"
                           ELSE IF w \in X THEN "retired" ELSE "parked"]
    /\ stuck = [w \in All |-> FALSE]
    /\ runs = [t \in Tasks |-> 0]
    /\ monSaw = FALSE
    /\ flagPoll = [w \in All |-> FALSE]

At(kind, w) == {t \in Tasks : loc[t] = Place(kind, w)}
InGlobal == {t \in Tasks : loc[t] = Global}
Running(w) == At("run", w) \cup At("runw", w)

\* What w itself has queued, and what its owner takes next: the LIFO slot,
\* then the private buffer, then the ring (popLocal; the seeds' buffer).
Own(w) == At("lifo", w) \cup At("buf", w) \cup At("ring", w)
OwnNext(w) == IF At("lifo", w) # {} THEN At("lifo", w)
              ELSE IF At("buf", w) # {} THEN At("buf", w) ELSE At("ring", w)

\* Tasks another worker (or an extra one) can take from v: its ring, and
\* its LIFO slot once the monitor flagged v. Never its private buffer.
Reachable(v) == At("ring", v) \cup (IF SlotStealable /\ stuck[v] THEN At("lifo", v) ELSE {})
\* What w can steal, from anybody (steal), or from stuck workers (stealStuck).
Stealable(w) == UNION {Reachable(v) : v \in All \ {w}}
FromStuck(w) == UNION {Reachable(v) : v \in {u \in All \ {w} : stuck[u]}}

\* Where a blocker's poll puts P when it wakes (or spawns) it.
WakeKind == IF Shape = "lifo" THEN "lifo" ELSE "ring"

\* w starts polling t. A blocker in Shape "lifo" wakes P into w's slot
\* first (Shape "spawn": spawns it into w's ring), unless WakeApart.
StartPoll(w, t, loc1) ==
    LET wakesP == Shape # "batch" /\ ~WakeApart /\ t \in Blockers /\ loc1["P"] = Nowhere
    IN /\ loc' = [loc1 EXCEPT ![t] = Place("run", w),
                              !["P"] = IF wakesP THEN Place(WakeKind, w) ELSE @]
       /\ runs' = [runs EXCEPT ![t] = @ + 1]
       /\ ws' = [ws EXCEPT ![w] = "polling"]

\* pollGlobal: w takes the whole global queue as one batch (at most 4
\* tasks here: the Go batch is at least 4) and polls t; the rest goes to
\* its private buffer or its ring, with no notify (a rest of 32 or less).
\* With PartialBatch the batch is any part of the queue (rest: what of it
\* goes along with t).
PollGlobal(w, t) ==
    LET kind == IF PrivateBuffer THEN "buf" ELSE IF RestApart THEN "hand" ELSE "ring"
        take(rest) == StartPoll(w, t, [u \in Tasks |-> IF u \in rest THEN Place(kind, w) ELSE loc[u]])
    IN IF PartialBatch THEN \E rest \in SUBSET (InGlobal \ {t}) : take(rest)
       ELSE take(InGlobal \ {t})

\* findWork of a worker that is not busy: its own queues, the global queue,
\* then a steal (the rings of all, the slots of stuck workers).
FindWork(w) ==
    \/ /\ AnyOrder
       /\ \/ \E t \in Own(w) \cup Stealable(w) : StartPoll(w, t, loc)
          \/ \E t \in InGlobal : PollGlobal(w, t)
    \/ \E t \in OwnNext(w) : StartPoll(w, t, loc)
    \/ Own(w) = {} /\ \E t \in InGlobal : PollGlobal(w, t)
    \/ Own(w) = {} /\ InGlobal = {} /\ \E t \in Stealable(w) : StartPoll(w, t, loc)

\* Nothing anywhere w may take: w parks (regular) or retires (extra). The
\* park-time re-check looks at exactly these places, so the decision is
\* one step here.
NothingFor(w) == Own(w) = {} /\ InGlobal = {} /\ Stealable(w) = {}

\* A regular worker between polls: find work, or park.
Look(w) ==
    /\ ws[w] = "looking"
    /\ ~Busy(w)
    /\ \/ FindWork(w)
       \/ NothingFor(w) /\ ws' = [ws EXCEPT ![w] = "parked"] /\ UNCHANGED <<loc, runs>>
    /\ UNCHANGED <<stuck, aux>>

\* The busy worker runs its own tasks (steps of no interest here) and takes
\* what it has queued (its ring is FIFO behind its own work); at its
\* fairness turn it takes a batch of the global queue or, if that is empty
\* and FairnessSteal holds, a task from a stuck worker's queues.
BusyLook(w) ==
    /\ Busy(w)
    /\ ws[w] = "looking"
    /\ \/ \E t \in OwnNext(w) : StartPoll(w, t, loc)
       \/ \E t \in InGlobal : PollGlobal(w, t)
       \/ /\ InGlobal = {}
          /\ FairnessSteal
          /\ \E t \in FromStuck(w) : StartPoll(w, t, loc)
    /\ UNCHANGED <<stuck, aux>>

\* An extra worker: the ordinary findWork; nothing: it retires (its
\* goroutine ends and its slot is free again).
ExtraLook(x) ==
    /\ ws[x] = "looking"
    /\ \/ FindWork(x)
       \/ NothingFor(x) /\ ws' = [ws EXCEPT ![x] = "retired"] /\ UNCHANGED <<loc, runs>>
    /\ UNCHANGED <<stuck, aux>>

\* P has had its effect: it is done, or (EffectInPoll) its poll that does
\* it has begun.
PRan == \/ loc["P"] = Done
        \/ EffectInPoll /\ ~PFirstPending /\ loc["P"] = Place("run", loc["P"].w)

\* A poll returns: P's at once, a blocker's once P has run. With Repolls,
\* P's first poll returns pending: P waits nowhere for its wake, or, woken
\* during the poll (runw), returns ready or goes to the back of the ring.
EndPoll(w) ==
    /\ ws[w] = "polling"
    /\ At("hand", w) = {}   \* the rest of its batch went to the ring before the poll
    /\ \E t \in Tasks :
          \/ /\ loc[t] = Place("run", w)
             /\ t = "P" \/ PRan
             /\ loc' = [loc EXCEPT ![t] = IF t = "P" /\ PFirstPending /\ runs[t] = 1 THEN Nowhere ELSE Done]
          \/ /\ loc[t] = Place("runw", w)
             /\ \/ loc' = [loc EXCEPT ![t] = Done]
                \/ loc' = [loc EXCEPT ![t] = Place("ring", w)]
    /\ ws' = [ws EXCEPT ![w] = "looking"]
    /\ flagPoll' = [flagPoll EXCEPT ![w] = FALSE]
    /\ UNCHANGED <<stuck, runs, monSaw>>

\* w pushes one task of its batch's rest from its hands into its ring
\* (RestApart).
PushRest(w) ==
    /\ RestApart
    /\ \E t \in At("hand", w) : loc' = [loc EXCEPT ![t] = Place("ring", w)]
    /\ UNCHANGED <<ws, stuck, runs, aux>>

\* A task comes from outside into the global queue (Arrivals).
Arrive(t) ==
    /\ Arrivals
    /\ loc[t] = Outside
    /\ loc' = [loc EXCEPT ![t] = Global]
    /\ UNCHANGED <<ws, stuck, runs, aux>>

\* A blocker's poll on w wakes P (WakeApart): P waiting nowhere goes to
\* w's slot (Shape "spawn": w's ring); P being polled (Repolls) is marked
\* woken during its poll.
WakeP(w) ==
    /\ WakeApart
    /\ ws[w] = "polling"
    /\ \E b \in Blockers : loc[b] = Place("run", w)
    /\ \/ loc["P"] = Nowhere /\ loc' = [loc EXCEPT !["P"] = Place(WakeKind, w)]
       \/ PFirstPending /\ runs["P"] = 1 /\ loc["P"].k = "run"
          /\ loc' = [loc EXCEPT !["P"] = Place("runw", loc["P"].w)]
    /\ UNCHANGED <<ws, stuck, runs, aux>>

\* A task waits where a woken or extra worker takes from.
Waiting == \/ InGlobal # {}
           \/ \E v \in All : At("ring", v) # {}
                             \/ (SlotStealable /\ stuck[v] /\ At("lifo", v) # {})

\* A task waits in a shared queue (what a push there announces).
SharedWaiting == InGlobal # {} \/ \E v \in All : At("ring", v) # {}

\* The idle protocol's notify (NotifyWakes): a parked worker is woken to
\* look for work. Any time: a notifier's claim comes after its push, when
\* the task may be gone, and Rule 2's notify (the last searcher found
\* work) announces nothing in particular. Only a wake while a task waits
\* in a shared queue is fair (Fairness): the idle protocol's guarantee.
NotifyWake(w) ==
    /\ NotifyWakes
    /\ ws[w] = "parked"
    /\ ws' = [ws EXCEPT ![w] = "looking"]
    /\ UNCHANGED <<loc, stuck, runs, aux>>

\* The monitor's steps one by one (LooseMonitor).
MonFlag(v) ==
    /\ LooseMonitor /\ Monitor
    /\ ws[v] \in {"looking", "polling"} /\ ~stuck[v]
    /\ stuck' = [stuck EXCEPT ![v] = TRUE]
    /\ flagPoll' = [flagPoll EXCEPT ![v] = ws[v] = "polling"]
    /\ UNCHANGED <<loc, ws, runs, monSaw>>
\* A stale flag: the code decides to flag on a tick count it read before
\* it stores the flag, and the worker may have moved on in between (begun
\* a tick and a poll in it, or parked, or retired); such a flag is of no
\* poll the worker is in, and the next look takes it down (MonUnflag).
MonFlagStale(v) ==
    /\ LooseMonitor /\ Monitor /\ ~stuck[v]
    /\ stuck' = [stuck EXCEPT ![v] = TRUE]
    /\ flagPoll' = [flagPoll EXCEPT ![v] = FALSE]
    /\ UNCHANGED <<loc, ws, runs, monSaw>>
\* The code unflags a worker whose tick count moved: it is not inside the
\* poll it was flagged in.
MonUnflag(v) ==
    /\ LooseMonitor /\ stuck[v] /\ ~(ws[v] = "polling" /\ flagPoll[v])
    /\ stuck' = [stuck EXCEPT ![v] = FALSE]
    /\ UNCHANGED <<loc, ws, runs, aux>>
\* The monitor sees a task wait while a worker is flagged (help's
\* workAvailable); it wakes or starts a worker for it in a later step of
\* its own, by which time the task may have been taken.
MonSee ==
    /\ LooseMonitor /\ Monitor
    /\ (\E u \in All : stuck[u]) /\ Waiting
    /\ monSaw' = TRUE
    /\ UNCHANGED <<loc, ws, stuck, runs, flagPoll>>
MonWake(v) ==
    /\ LooseMonitor /\ Monitor
    /\ ws[v] = "parked" /\ (\E u \in All : stuck[u]) /\ monSaw
    /\ ws' = [ws EXCEPT ![v] = "looking"]
    /\ monSaw' = FALSE
    /\ UNCHANGED <<loc, stuck, runs, flagPoll>>
MonExtra(x) ==
    /\ LooseMonitor /\ Monitor
    /\ ws[x] = "retired" /\ (\E u \in All : stuck[u]) /\ monSaw
    /\ \A v \in W : ws[v] # "parked"
    /\ ws' = [ws EXCEPT ![x] = "looking"]
    /\ monSaw' = FALSE
    /\ UNCHANGED <<loc, stuck, runs, flagPoll>>

\* The monitor's look (watch, check, help): every worker inside a poll is
\* flagged stuck (abstracted: in Go, inside the same tick for LongPoll),
\* the others unflagged. If any is stuck, a task waits where a woken or
\* extra worker can take it (workAvailable: the global queue, a ring, a
\* flagged worker's slot) and nobody is looking for work already
\* (idle.Searching), wake the lowest parked worker (ClaimParked), or, if
\* none is parked and no worker is healthy (between two polls), start an
\* extra worker in the first free slot, if fewer than ExtraMax run.
\* "Looking" stands for searching: a worker between two polls that is not
\* busy looks at every place a woken worker would before it parks. Go
\* counts only searchers and so helps in more states than this: the
\* model's monitor helps less, never more.
MonitorLook ==
    /\ Monitor
    /\ LET flags == [v \in All |-> ws[v] = "polling"]
           waiting == InGlobal # {}
                      \/ \E v \in All : At("ring", v) # {}
                                        \/ (SlotStealable /\ flags[v] /\ At("lifo", v) # {})
           searching == \E v \in All : ws[v] = "looking" /\ ~Busy(v)
           healthy == \E v \in All : ws[v] = "looking"
           parked == {v \in W : ws[v] = "parked"}
           free == {x \in X : ws[x] = "retired"}
           lowest(S) == CHOOSE v \in S : \A u \in S : v <= u
       IN /\ stuck' = flags
          /\ ws' = IF (\E v \in All : flags[v]) /\ waiting /\ ~searching
                   THEN IF parked # {} THEN [ws EXCEPT ![lowest(parked)] = "looking"]
                        ELSE IF ~healthy /\ free # {}
                             THEN [ws EXCEPT ![lowest(free)] = "looking"]
                             ELSE ws
                   ELSE ws
    \* its flags are of workers inside their current polls
    /\ flagPoll' = IF LooseMonitor THEN [v \in All |-> ws[v] = "polling"] ELSE flagPoll
    /\ UNCHANGED <<loc, runs, monSaw>>

Next ==
    \/ \E w \in W : Look(w) \/ BusyLook(w) \/ EndPoll(w) \/ WakeP(w) \/ NotifyWake(w) \/ MonWake(w)
    \/ \E x \in X : ExtraLook(x) \/ EndPoll(x) \/ WakeP(x) \/ MonExtra(x)
    \/ \E t \in Tasks : Arrive(t)
    \/ \E v \in All : PushRest(v)
    \/ \E v \in All : MonFlag(v) \/ MonFlagStale(v) \/ MonUnflag(v)
    \/ MonSee
    \/ MonitorLook

(***************************************************************************)
(* Fairness. Weak fairness on every step of every goroutine; nothing is   *)
(* strongly fair, and a parked worker has no step of its own.             *)
(*  - Look, ExtraLook: a worker the monitor woke, or an extra worker it   *)
(*    started, is a runnable goroutine, and Go's scheduler runs runnable  *)
(*    goroutines (preempting others every 10 ms at worst). Once looking, *)
(*    a worker always has a step (find work, or park / retire).           *)
(*  - BusyLook: the busy worker's own polls are short; it takes the global *)
(*    queue and the stuck workers' queues at its fairness turn, which     *)
(*    comes every `interval` polls (at most maxGlobalInterval = 255), and *)
(*    its ring is FIFO behind its own work. The step stays enabled while  *)
(*    a task waits there: only a taker removes a task, and a flag stays   *)
(*    up while its worker's poll blocks.                                   *)
(*  - EndPoll: a poll of P returns; a blocker's returns once P has run    *)
(*    (the receive completes once the send happened). This is what the   *)
(*    tasks do, not the scheduler: the assumption that makes B "blocked   *)
(*    until P ran" and nothing worse.                                     *)
(*  - MonitorLook: the monitor sleeps LongPoll/2 while any worker runs (a *)
(*    worker inside a poll runs), then looks again; it is a goroutine too. *)
(* Not modelled, and never fair: the park timeout. It wakes a worker that *)
(* then finds what Look finds; in every failing configuration the waiting *)
(* task is in a place no other worker takes from (a private buffer, an    *)
(* unflagged or unstealable slot) or no worker is parked at all.          *)
(***************************************************************************)
\* The code's grain adds: a task from outside arrives, a blocker's wake
\* happens (it is in its poll), a notify wakes somebody while a task waits
\* in a shared queue (SharedWaiting). The loose monitor's steps are not fair: its fair
\* look is MonitorLook.
Fairness ==
    /\ \A w \in W : WF_vars(Look(w)) /\ WF_vars(BusyLook(w)) /\ WF_vars(EndPoll(w))
    /\ \A x \in X : WF_vars(ExtraLook(x)) /\ WF_vars(EndPoll(x))
    /\ WF_vars(MonitorLook)
    /\ \A t \in Tasks : WF_vars(Arrive(t))
    /\ \A v \in All : WF_vars(WakeP(v)) /\ WF_vars(PushRest(v))
    /\ WF_vars(\E w \in W : NotifyWake(w) /\ SharedWaiting)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties *)

TypeOK ==
    /\ loc \in [Tasks -> Places]
    /\ ws \in [All -> {"parked", "looking", "polling", "retired"}]
    /\ stuck \in [All -> BOOLEAN]
    /\ runs \in [Tasks -> Nat]
    /\ monSaw \in BOOLEAN
    /\ flagPoll \in [All -> BOOLEAN]

\* Each task is polled at most once: a task taken by two workers, or taken
\* from two places, would be polled twice.
AtMostOnce == \A t \in Tasks : runs[t] <= MaxPolls(t)

\* A worker polls at most one task at a time.
OnePollPerWorker == \A w \in All : Cardinality(Running(w)) <= 1

\* loc is a function, so every task is in exactly one place by its type;
\* this says the places agree with the rest of the state: a task is being
\* polled or done exactly when it was taken, a worker polls exactly when a
\* task is in its hands, P is nowhere only until the first blocker runs,
\* and nothing is queued in the places of a worker that sleeps or of an
\* extra worker that has retired (nothing pushes into another worker's
\* queues).
PlacesAgree ==
    /\ \A t \in Tasks : IF MaxPolls(t) = 1 THEN (loc[t].k \in {"run", "runw", "done"}) <=> (runs[t] = 1)
                        ELSE /\ loc[t].k \in {"run", "runw", "done", "nowhere"} => runs[t] >= 1
                             /\ loc[t] \in {Outside, Global} => runs[t] = 0
    /\ \A w \in All : (ws[w] = "polling") <=> (Running(w) # {})
    /\ loc["P"] = Nowhere => Shape # "batch" /\ (WakeApart \/ \A b \in Blockers : runs[b] = 0)
    /\ \A t \in Tasks : loc[t] = Outside => Arrivals
    /\ \A w \in All : ws[w] \in {"parked", "retired"} => Own(w) = {}

\* Liveness: every task runs, whatever the interleaving.
EveryTaskRuns == <>(\A t \in Tasks : loc[t] = Done)
=============================================================================
