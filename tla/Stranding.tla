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
(* The model is the design, not the code: queues are sets of places, a     *)
(* steal or a batch take is one step, and the idle protocol is reduced to  *)
(* its effect on parked workers (IdleProtocol.tla checks that one, and     *)
(* the explorer runs the code's own interleavings); the rest of a small    *)
(* batch is not announced, as in impl/sched, so only the monitor wakes a   *)
(* parked worker for it. Two shapes of the hazard:                         *)
(*   Shape = "batch": the tasks come from outside; a worker takes them all *)
(*     from the global queue in one batch and runs a blocker first; the    *)
(*     rest of the batch goes to its private buffer (PrivateBuffer) or to  *)
(*     its ring.                                                           *)
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
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    N,              \* regular workers
    ExtraMax,       \* extra workers the monitor may run at once
    K,              \* blocking tasks
    Shape,          \* "batch" or "lifo"
    PrivateBuffer, SlotStealable, Monitor, BusyOther, FairnessSteal

W == 1..N                       \* regular workers
X == N+1..N+ExtraMax            \* extra worker slots
All == W \cup X
Blockers == CASE K = 1 -> {"B1"} [] K = 2 -> {"B1", "B2"} [] K = 3 -> {"B1", "B2", "B3"}
Tasks == Blockers \cup {"P"}

\* Where a task is: a kind of place and, for a worker's places, the worker.
\* Nowhere: P before a blocker wakes it (Shape "lifo").
Place(kind, w) == [k |-> kind, w |-> w]
Nowhere == Place("nowhere", 0)
Global == Place("global", 0)
Done == Place("done", 0)
Places == {Nowhere, Global, Done}
          \cup {Place(kind, w) : kind \in {"ring", "buf", "lifo", "run"}, w \in All}

VARIABLES
    loc,    \* [Tasks -> Places]
    ws,     \* [All -> {"parked", "looking", "polling", "retired"}]
    stuck,  \* [All -> BOOLEAN], the monitor's flags
    runs    \* [Tasks -> Nat], polls begun, for the exactly-once invariant

vars == <<loc, ws, stuck, runs>>

Busy(w) == BusyOther /\ w = N    \* the worker that always has work of its own

Init ==
    /\ loc = [t \in Tasks |-> IF t = "P" /\ Shape = "lifo" THEN Nowhere ELSE Global]
    \* The spawns from outside woke one worker; the others sleep (the busy
    \* worker is running its own work).
    /\ ws = [w \in All |-> IF w = 1 \/ Busy(w) THEN "looking"
                           ELSE IF w \in X THEN "retired" ELSE "parked"]
    /\ stuck = [w \in All |-> FALSE]
    /\ runs = [t \in Tasks |-> 0]

At(kind, w) == {t \in Tasks : loc[t] = Place(kind, w)}
InGlobal == {t \in Tasks : loc[t] = Global}
\* The task that runs first out of a set: a blocker if there is one.
First(S) == IF S \cap Blockers # {} THEN CHOOSE t \in S \cap Blockers : TRUE ELSE CHOOSE t \in S : TRUE

\* Tasks another worker (or an extra one) can take from v: its ring, and
\* its LIFO slot once the monitor flagged v. Never its private buffer.
Reachable(v) == At("ring", v) \cup (IF SlotStealable /\ stuck[v] THEN At("lifo", v) ELSE {})

\* w starts polling t. A blocker in Shape "lifo" wakes P into w's slot first.
StartPoll(w, t, loc1) ==
    LET wakesP == Shape = "lifo" /\ t \in Blockers /\ loc1["P"] = Nowhere
    IN /\ loc' = [loc1 EXCEPT ![t] = Place("run", w),
                              !["P"] = IF wakesP THEN Place("lifo", w) ELSE @]
       /\ runs' = [runs EXCEPT ![t] = @ + 1]

\* A regular worker between polls: its LIFO slot, its buffer, its ring,
\* the global queue (a batch), then the others' rings and the slots of
\* stuck workers; nothing: it parks.
Look(w) ==
    /\ ws[w] = "looking"
    /\ ~Busy(w)
    /\ \/ /\ At("lifo", w) \cup At("buf", w) \cup At("ring", w) # {}
          /\ LET own == IF At("lifo", w) # {} THEN At("lifo", w)
                        ELSE IF At("buf", w) # {} THEN At("buf", w) ELSE At("ring", w)
             IN StartPoll(w, CHOOSE t \in own : TRUE, loc)
          /\ ws' = [ws EXCEPT ![w] = "polling"]
       \/ /\ At("lifo", w) \cup At("buf", w) \cup At("ring", w) = {}
          /\ InGlobal # {}
          /\ LET t == First(InGlobal)
                 rest == InGlobal \ {t}
                 kind == IF PrivateBuffer THEN "buf" ELSE "ring"
                 loc1 == [u \in Tasks |-> IF u \in rest THEN Place(kind, w) ELSE loc[u]]
             IN /\ StartPoll(w, t, loc1)
                \* No notify: a small rest goes to the ring unannounced
                \* (impl/sched quietBatch); only the monitor helps.
                /\ ws' = [ws EXCEPT ![w] = "polling"]
       \/ /\ At("lifo", w) \cup At("buf", w) \cup At("ring", w) = {}
          /\ InGlobal = {}
          /\ \E v \in All \ {w} : \E t \in Reachable(v) : StartPoll(w, t, loc)
          /\ ws' = [ws EXCEPT ![w] = "polling"]
       \/ /\ At("lifo", w) \cup At("buf", w) \cup At("ring", w) = {}
          /\ InGlobal = {}
          /\ \A v \in All \ {w} : Reachable(v) = {}
          /\ ws' = [ws EXCEPT ![w] = "parked"]
          /\ UNCHANGED <<loc, runs>>
    /\ UNCHANGED stuck

\* The busy worker runs its own tasks (steps of no interest here) and, at
\* every fairness turn, the global queue, and with FairnessSteal the queues
\* of stuck workers.
FairnessTurn(w) ==
    /\ Busy(w)
    /\ ws[w] = "looking"
    /\ \/ /\ InGlobal # {}
          /\ StartPoll(w, First(InGlobal), loc)
       \/ /\ InGlobal = {}
          /\ FairnessSteal
          /\ \E v \in All \ {w} : stuck[v] /\ \E t \in Reachable(v) : StartPoll(w, t, loc)
    /\ ws' = [ws EXCEPT ![w] = "polling"]
    /\ UNCHANGED stuck

\* An extra worker: the global queue, every ring, the slots of stuck
\* workers; nothing: it retires (its goroutine ends).
ExtraLook(x) ==
    /\ ws[x] = "looking"
    /\ \/ /\ InGlobal # {}
          /\ StartPoll(x, First(InGlobal), loc)
          /\ ws' = [ws EXCEPT ![x] = "polling"]
       \/ /\ InGlobal = {}
          /\ \E v \in All \ {x} : \E t \in Reachable(v) : StartPoll(x, t, loc)
          /\ ws' = [ws EXCEPT ![x] = "polling"]
       \/ /\ InGlobal = {}
          /\ \A v \in All \ {x} : Reachable(v) = {}
          /\ ws' = [ws EXCEPT ![x] = "retired"]
          /\ UNCHANGED <<loc, runs>>
    /\ UNCHANGED stuck

\* A poll returns: P at once, a blocker once P has run.
EndPoll(w) ==
    /\ ws[w] = "polling"
    /\ \E t \in Tasks :
          /\ loc[t] = Place("run", w)
          /\ t = "P" \/ loc["P"] = Done
          /\ loc' = [loc EXCEPT ![t] = Done]
    /\ ws' = [ws EXCEPT ![w] = "looking"]
    /\ UNCHANGED <<stuck, runs>>

\* The monitor's look: every worker inside a poll at two looks in a row is
\* stuck (abstracted: inside a poll); if any is and a task waits where a
\* helper can take it, wake a parked worker, or, if none is parked and no
\* running worker is healthy, start an extra worker.
MonitorLook ==
    /\ Monitor
    /\ LET flags == [v \in All |-> ws[v] = "polling"]
           waiting == InGlobal # {}
                      \/ \E v \in All : At("ring", v) # {}
                                        \/ (SlotStealable /\ flags[v] /\ At("lifo", v) # {})
           healthy == \E v \in All : ws[v] = "looking"
           parked == {v \in W : ws[v] = "parked"}
           free == {x \in X : ws[x] = "retired"}
       IN /\ stuck' = flags
          /\ ws' = IF (\E v \in All : flags[v]) /\ waiting
                   THEN IF parked # {} THEN [ws EXCEPT ![CHOOSE v \in parked : TRUE] = "looking"]
                        ELSE IF ~healthy /\ free # {}
                             THEN [ws EXCEPT ![CHOOSE x \in free : TRUE] = "looking"]
                             ELSE ws
                   ELSE ws
    /\ UNCHANGED <<loc, runs>>

Next ==
    \/ \E w \in W : Look(w) \/ FairnessTurn(w) \/ EndPoll(w)
    \/ \E x \in X : ExtraLook(x) \/ EndPoll(x)
    \/ MonitorLook

\* Fairness: every goroutine that can take a step eventually does (Go's
\* scheduler runs runnable goroutines; a worker woken or an extra worker
\* started is runnable), and the monitor looks again and again (it sleeps
\* LongPoll/2 while workers run). Weak fairness is enough: none of these
\* steps is enabled only now and then.
Fairness ==
    /\ \A w \in W : WF_vars(Look(w)) /\ WF_vars(FairnessTurn(w)) /\ WF_vars(EndPoll(w))
    /\ \A x \in X : WF_vars(ExtraLook(x)) /\ WF_vars(EndPoll(x))
    /\ WF_vars(MonitorLook)

Spec == Init /\ [][Next]_vars /\ Fairness

TypeOK ==
    /\ loc \in [Tasks -> Places]
    /\ ws \in [All -> {"parked", "looking", "polling", "retired"}]
    /\ stuck \in [All -> BOOLEAN]
    /\ runs \in [Tasks -> 0..1]

\* Exactly once: no task is polled twice (a task taken by two workers, or
\* run from two places, would be). runs \in 0..1 in TypeOK says it too;
\* this names it.
AtMostOnce == \A t \in Tasks : runs[t] <= 1

\* A worker polls at most one task at a time.
OnePollPerWorker == \A w \in All : Cardinality(At("run", w)) <= 1

\* Liveness: every task runs, whatever the interleaving.
EveryTaskRuns == <>(\A t \in Tasks : loc[t] = Done)
=============================================================================
