---------------------------- MODULE IdleProtocol ----------------------------
(***************************************************************************)
(* The idle protocol of the scheduler: workers that search for work, run   *)
(* it and park; the counters num_searching (ns), num_parked (np) and the   *)
(* parked bitmap; the notify rule that claims a parked worker.             *)
(*                                                                         *)
(* Every load, store, fetch-and-op and CAS on shared state is its own      *)
(* action.  Queue operations (ring pop, steal, global pop) are one action  *)
(* each: their own atomicity is the subject of ThreePhaseSteal.tla and of  *)
(* the linearizability tests.  The park timeout is off: a worker asleep    *)
(* without an unpark token only wakes spuriously, and spurious wakes are   *)
(* bounded and never fair.                                                 *)
(*                                                                         *)
(* The constants with the Seed prefix (and RemoteLIFO) switch one         *)
(* mechanism back to the way the design documents of the original runtime *)
(* write it; NoRule2Notify, NoFinalCheck and DecBeforeBit break one rule  *)
(* of the corrected design.  With all of them FALSE:                      *)
(*   SignedNs = TRUE   is the design impl/idle implements (IdleGo.cfg);    *)
(*   both FALSE        is our first corrected design, literally (fails);  *)
(*   ClaimWaitsToken   is the other fix of that failure (IdleFixed.cfg).   *)
(* docs/tla.md maps every action to the Go function it stands for.        *)
(***************************************************************************)
EXTENDS Integers, FiniteSets

CONSTANTS
    N,              \* number of workers; worker ids are 0..N-1
    ExtTasks,       \* tasks handed in by a goroutine that is not a worker
    SpawnTasks,     \* tasks spawned by running tasks (pushes to the worker's own queues)
    LongTasks,      \* how many taken tasks may run for ever (a worker busy without bound)
    Spurious,       \* how many spurious wakes the parker may produce in a behaviour
    Stealing,       \* FALSE: stealing disabled (nobody searches unless claimed)
    \* The seeds' mechanisms, each on its own.
    SeedWakeReason, \* wake reason by a LOAD of the bitmap, then an unconditional fetchAnd
    SeedParkSeq,    \* transitioning_to_park flag, LIFO flush, double check before the bit
    RemoteLIFO,     \* a remote waker loads the flag and, if clear, stores into the LIFO slot
    SeedFinalCheck, \* only the last searcher re-checks, and only the global queue
    \* One rule of the corrected design broken.
    NoRule2Notify,  \* the last searcher that finds work does not notify
    NoFinalCheck,   \* nobody re-checks the queues after publishing the parked bit
    DecBeforeBit,   \* ns-- happens before the parked bit is set
    \* The fix TLC asked for (see docs/tla.md): a worker that finds its bit
    \* already cleared by a notifier waits for that notifier's unpark token
    \* before it acts as a searcher, because the notifier's ns++ lands only
    \* between its fetchAnd and its unpark.
    ClaimWaitsToken,
    \* How impl/idle reads the counter instead: ns is signed and "nobody is
    \* searching" is tested as ns <= 0 (Notify) and ns-1 <= 0 (Rule 2), so a
    \* credit returned before it was handed out (ns = -1 for a moment) still
    \* counts as "nobody searching".
    SignedNs

W == 0 .. (N - 1)
P == N                      \* the outside producer (a non-worker goroutine)
Procs == W \cup {P}
G == -1                     \* queue id of the global queue in a final check
Total == ExtTasks + SpawnTasks

Min(S) == CHOOSE x \in S : \A y \in S : x <= y

\* "Nobody is searching", given the value of ns.
NoSearcher(x) == IF SignedNs THEN x <= 0 ELSE x = 0

VARIABLES
    pc,         \* [Procs -> label]
    ret,        \* [Procs -> label]  where the notify routine returns to
    tgt,        \* [Procs -> W]      the worker a notifier (or remote waker) works on
    searching,  \* [W -> BOOLEAN]    the worker's own is_searching
    claimed,    \* [W -> BOOLEAN]    ghost: a notifier cleared w's bit and owes it ns credit
    last,       \* [W -> BOOLEAN]    the parker's ns-- returned 1 (it was the last searcher)
    chk,        \* [W -> SUBSET (W \cup {G})]  queues still to look at in the final check
    victims,    \* [W -> SUBSET W]   victims not yet tried in this steal round
    token,      \* [W -> BOOLEAN]    sticky unpark token of the worker's parker
    flag,       \* [W -> BOOLEAN]    transitioning_to_park (seed only)
    gotTok,     \* [W -> BOOLEAN]    the last wake consumed an unpark token
    lifo,       \* [W -> Nat]        tasks in the LIFO slot
    ring,       \* [W -> Nat]        tasks in the worker's ring (stealable)
    glob,       \* tasks in the global queue
    ns, np,     \* num_searching, num_parked
    bitmap,     \* the parked bitmap, as a set of worker ids
    extLeft, spawnLeft, longLeft, spurLeft,
    taken,      \* tasks taken off a queue so far
    held        \* [W -> Nat]  a global batch's rest, out of every queue (GlobalBatch)

vars == <<pc, ret, tgt, searching, claimed, last, chk, victims, token, flag, gotTok,
          lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft,
          spurLeft, taken, held>>

Queued == glob + (IF N = 0 THEN 0 ELSE
            LET Sum[S \in SUBSET W] ==
                  IF S = {} THEN 0
                  ELSE LET x == Min(S) IN lifo[x] + ring[x] + held[x] + Sum[S \ {x}]
            IN Sum[W])

Init ==
    /\ pc = [p \in Procs |-> IF p = P THEN "p_idle" ELSE "fw_lifo"]
    /\ ret = [p \in Procs |-> "none"]
    /\ tgt = [p \in Procs |-> 0]
    /\ searching = [w \in W |-> FALSE]
    /\ claimed = [w \in W |-> FALSE]
    /\ last = [w \in W |-> FALSE]
    /\ chk = [w \in W |-> {}]
    /\ victims = [w \in W |-> {}]
    /\ token = [w \in W |-> FALSE]
    /\ flag = [w \in W |-> FALSE]
    /\ gotTok = [w \in W |-> FALSE]
    /\ lifo = [w \in W |-> 0]
    /\ ring = [w \in W |-> 0]
    /\ glob = 0
    /\ ns = 0 /\ np = 0
    /\ bitmap = {}
    /\ extLeft = ExtTasks /\ spawnLeft = SpawnTasks
    /\ longLeft = LongTasks /\ spurLeft = Spurious
    /\ taken = 0
    /\ held = [w \in W |-> 0]

Goto(p, l) == pc' = [pc EXCEPT ![p] = l]

(***************************************************************************)
(* Notify (Rule 1), run by any process after it published a task, and by  *)
(* the last searcher that found work (Rule 2): if ns == 0, claim the      *)
(* lowest parked worker (ctz, then fetchAnd; the returned old value       *)
(* decides a race), np--, ns++, unpark it.                                *)
(***************************************************************************)
\* Return from notify; ret and tgt are cleared so that finished calls leave no trace.
Return(p) == pc' = [pc EXCEPT ![p] = ret[p]] /\ ret' = [ret EXCEPT ![p] = "none"]

CallNotify(p, back) == pc' = [pc EXCEPT ![p] = "n_loadns"] /\ ret' = [ret EXCEPT ![p] = back]

NLoadNs(p) ==
    /\ pc[p] = "n_loadns"
    /\ IF NoSearcher(ns) THEN Goto(p, "n_loadbm") /\ UNCHANGED ret ELSE Return(p)
    /\ UNCHANGED <<gotTok, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

NLoadBm(p) ==
    /\ pc[p] = "n_loadbm"
    /\ IF bitmap = {}
         THEN Return(p) /\ tgt' = [tgt EXCEPT ![p] = 0]
         ELSE /\ Goto(p, "n_fetchand") /\ tgt' = [tgt EXCEPT ![p] = Min(bitmap)]
              /\ UNCHANGED ret
    /\ UNCHANGED <<gotTok, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

NFetchAnd(p) ==
    /\ pc[p] = "n_fetchand"
    /\ LET t == tgt[p] IN
         IF t \in bitmap
           THEN /\ bitmap' = bitmap \ {t}
                /\ claimed' = [claimed EXCEPT ![t] = TRUE]
                /\ Goto(p, "n_decnp")
           ELSE /\ Goto(p, "n_loadbm")     \* lost the race: retry
                /\ UNCHANGED <<bitmap, claimed>>
    /\ UNCHANGED <<gotTok, ret, tgt, searching, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

NDecNp(p) ==
    /\ pc[p] = "n_decnp"
    /\ np' = np - 1
    /\ Goto(p, "n_incns")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

NIncNs(p) ==
    /\ pc[p] = "n_incns"
    /\ ns' = ns + 1
    /\ Goto(p, "n_unpark")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

NUnpark(p) ==
    /\ pc[p] = "n_unpark"
    /\ token' = [token EXCEPT ![tgt[p]] = TRUE]
    /\ Return(p)
    /\ tgt' = [tgt EXCEPT ![p] = 0]
    /\ UNCHANGED <<gotTok, searching, claimed, last, chk, victims, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

Notify(p) == NLoadNs(p) \/ NLoadBm(p) \/ NFetchAnd(p) \/ NDecNp(p) \/ NIncNs(p) \/ NUnpark(p)

(***************************************************************************)
(* findWork: LIFO slot, own ring, steal (searchers only), global queue.   *)
(* With GlobalFirst, also the global queue between the ring and the try   *)
(* to become a searcher, as impl/sched's findWork polls it in every round. *)
(***************************************************************************)
\* The first global poll.  Left out of the configurations that predate it
\* (their state counts are those of tla/expectations.tsv): there the global
\* queue is polled after stealing only.  Trace validation found that a
\* worker of impl/sched takes a task from the global queue with no try to
\* become a searcher before it, which only GlobalFirst allows; a
\* configuration switches it on with "GlobalFirst = TRUE" (IdleGoTicks.cfg,
\* and the trace's).
GlobalFirst == FALSE

\* Another round before parking.  impl/sched's worker parks after a tick
\* that polled nothing; a tick that ran a task ends with a fruitless round
\* and the worker ticks again, so it looks twice before it parks.  The spec
\* does not count a tick's polls: with RetryRound a worker may start
\* another round after any fruitless one (more than the code does).  Off
\* where GlobalFirst is off, for the same reason; trace validation found
\* it too (two tryBecomeSearcher loads with no park between).
RetryRound == FALSE
ParkStart(w) ==
    IF SeedParkSeq THEN "sp_flag"
    ELSE IF DecBeforeBit /\ searching[w] THEN "pk_ns" ELSE "pk_bit"

FwLifo(w) ==
    /\ pc[w] = "fw_lifo"
    /\ IF lifo[w] > 0
         THEN /\ lifo' = [lifo EXCEPT ![w] = @ - 1]
              /\ taken' = taken + 1
              /\ Goto(w, IF searching[w] THEN "tf_dec" ELSE "run")
         ELSE /\ Goto(w, "fw_ring")
              /\ UNCHANGED <<lifo, taken>>
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft>>

FwRing(w) ==
    /\ pc[w] = "fw_ring"
    /\ IF ring[w] > 0
         THEN /\ ring' = [ring EXCEPT ![w] = @ - 1]
              /\ taken' = taken + 1
              /\ Goto(w, IF searching[w] THEN "tf_dec" ELSE "run")
         ELSE /\ Goto(w, IF GlobalFirst THEN "fw_glob0" ELSE IF Stealing THEN "fw_try" ELSE "fw_glob")
              /\ UNCHANGED <<ring, taken>>
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft>>

\* The global queue's batch.  impl/sched's pollGlobal takes a batch of the
\* global queue in one PopBatch, runs the first task and holds the rest
\* out of every queue until it has pushed them into its own ring, one push
\* at a time, with no notify for a rest of quietBatch or fewer (all of them
\* here).  With GlobalBatch a take is of any 1..glob tasks (the code's size
\* depends on the queue's length, the workers and the ring's room: any of
\* them, and more), the rest in held[w], pushed by FwPush.  Off, a take is
\* of one task and held stays 0: the configurations that predate it keep
\* their state counts.  Trace validation found it (a stress log under
\* chaos, rejected where a parker's re-check saw nothing while the spec
\* still had a task in the global queue); a configuration sets
\* "GlobalBatch = TRUE" (IdleGoBatch.cfg, and the trace's).
GlobalBatch == FALSE

AfterTake(w) == IF searching[w] THEN "tf_dec" ELSE "run"

TakeGlobal(w) ==
    \E k \in 1 .. (IF GlobalBatch THEN glob ELSE 1) :
        /\ glob' = glob - k
        /\ taken' = taken + 1
        /\ held' = [held EXCEPT ![w] = k - 1]
        /\ Goto(w, IF k > 1 THEN "fw_push" ELSE AfterTake(w))

\* pollGlobal's pushRing of one task of the batch's rest.
FwPush(w) ==
    /\ pc[w] = "fw_push"
    /\ ring' = [ring EXCEPT ![w] = @ + 1]
    /\ held' = [held EXCEPT ![w] = @ - 1]
    /\ Goto(w, IF held[w] = 1 THEN AfterTake(w) ELSE "fw_push")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* GlobalFirst: the global queue before the try to become a searcher.
FwGlobFirst(w) ==
    /\ pc[w] = "fw_glob0"
    /\ IF glob > 0
         THEN TakeGlobal(w)
         ELSE /\ Goto(w, IF Stealing THEN "fw_try" ELSE "fw_glob")
              /\ UNCHANGED <<glob, taken, held>>
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft>>

\* Where a searcher goes to steal: with one worker there is no victim, and
\* the steal round is empty.
StealNext(w) == IF W \ {w} = {} THEN "fw_glob" ELSE "fw_steal"

\* tryBecomeSearcher: load ns, refuse if 2*ns >= N, else ns++ (a separate step).
FwTry(w) ==
    /\ pc[w] = "fw_try"
    /\ IF searching[w]
         THEN Goto(w, StealNext(w)) /\ victims' = [victims EXCEPT ![w] = W \ {w}]
         ELSE IF 2 * ns >= N
                THEN Goto(w, "fw_glob") /\ UNCHANGED victims
                ELSE Goto(w, "fw_incns") /\ UNCHANGED victims
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

FwIncNs(w) ==
    /\ pc[w] = "fw_incns"
    /\ ns' = ns + 1
    /\ searching' = [searching EXCEPT ![w] = TRUE]
    /\ victims' = [victims EXCEPT ![w] = W \ {w}]
    /\ Goto(w, StealNext(w))
    /\ UNCHANGED <<gotTok, ret, tgt, claimed, last, chk, token, flag,
                   lifo, ring, glob, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* One StealInto per victim (any order: the victim choice is random).  It takes
\* ceil(n/2): the first is run, the rest land in the thief's (empty) ring.
FwSteal(w) ==
    /\ pc[w] = "fw_steal"
    /\ \E v \in victims[w] :
         IF ring[v] > 0
           THEN LET k == ring[v] - (ring[v] \div 2) IN
                /\ ring' = [ring EXCEPT ![v] = @ - k, ![w] = @ + k - 1]
                /\ taken' = taken + 1
                /\ Goto(w, IF searching[w] THEN "tf_dec" ELSE "run")
                /\ victims' = [victims EXCEPT ![w] = {}]
           ELSE /\ victims' = [victims EXCEPT ![w] = @ \ {v}]
                /\ Goto(w, IF victims[w] = {v} THEN "fw_glob" ELSE "fw_steal")
                /\ UNCHANGED <<ring, taken>>
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, token, flag,
                   lifo, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft>>

FwGlob(w) ==
    /\ pc[w] = "fw_glob"
    /\ IF glob > 0
         THEN TakeGlobal(w)
         ELSE /\ \/ Goto(w, ParkStart(w))
                 \/ RetryRound /\ Goto(w, "fw_lifo")
              /\ UNCHANGED <<glob, taken, held>>
    /\ last' = [last EXCEPT ![w] = FALSE]
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, chk, victims, token, flag,
                   lifo, ring, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft>>

\* Rule 2: transition from searching (fetchSub); the last searcher notifies.
TfDec(w) ==
    /\ pc[w] = "tf_dec"
    /\ ns' = ns - 1
    /\ searching' = [searching EXCEPT ![w] = FALSE]
    /\ IF NoSearcher(ns - 1) /\ ~NoRule2Notify
         THEN CallNotify(w, "run")
         ELSE Goto(w, "run") /\ UNCHANGED ret
    /\ UNCHANGED <<gotTok, tgt, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

(***************************************************************************)
(* Running a task: it may spawn (to the ring, or to the LIFO slot which   *)
(* evicts the previous LIFO task to the ring), or run for ever.  A push   *)
(* notifies, except a push into an empty LIFO slot (not stealable).       *)
(***************************************************************************)
\* A push into the worker's own ring notifies; with stealing disabled only the
\* ring's (running) owner can take the task, so there is nobody to notify.
NotifyLocal(w, back) ==
    IF Stealing THEN CallNotify(w, back)
    ELSE Goto(w, back) /\ UNCHANGED ret

SpawnRing(w) ==
    /\ spawnLeft > 0
    /\ spawnLeft' = spawnLeft - 1
    /\ ring' = [ring EXCEPT ![w] = @ + 1]
    /\ NotifyLocal(w, "run2")
    /\ UNCHANGED lifo

SpawnLifo(w) ==
    /\ spawnLeft > 0
    /\ spawnLeft' = spawnLeft - 1
    /\ IF lifo[w] = 0
         THEN /\ lifo' = [lifo EXCEPT ![w] = 1]
              /\ Goto(w, "run2") /\ UNCHANGED <<ring, ret>>
         ELSE /\ ring' = [ring EXCEPT ![w] = @ + 1]   \* old LIFO task evicted to the ring
              /\ NotifyLocal(w, "run2") /\ UNCHANGED lifo

Run(w) ==
    /\ pc[w] \in {"run", "run2"}
    /\ \/ Goto(w, "fw_lifo") /\ UNCHANGED <<ret, lifo, ring, spawnLeft, longLeft>>
       \/ /\ pc[w] = "run" /\ longLeft > 0
          /\ longLeft' = longLeft - 1
          /\ Goto(w, "blocked")
          /\ UNCHANGED <<ret, lifo, ring, spawnLeft>>
       \/ (SpawnRing(w) \/ SpawnLifo(w)) /\ UNCHANGED longLeft
    /\ UNCHANGED <<gotTok, tgt, searching, claimed, last, chk, victims, token, flag,
                   glob, ns, np, bitmap, extLeft, spurLeft, taken>>

(***************************************************************************)
(* The seed's parking preamble: set transitioning_to_park, flush the LIFO *)
(* slot to the ring, double-check own ring and the global queue.          *)
(***************************************************************************)
SpFlag(w) ==
    /\ pc[w] = "sp_flag"
    /\ flag' = [flag EXCEPT ![w] = TRUE]
    /\ Goto(w, "sp_flush")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

SpFlush(w) ==
    /\ pc[w] = "sp_flush"
    /\ lifo' = [lifo EXCEPT ![w] = 0]
    /\ ring' = [ring EXCEPT ![w] = @ + lifo[w]]
    /\ Goto(w, "sp_dbl_ring")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

SpDblRing(w) ==
    /\ pc[w] = "sp_dbl_ring"
    /\ Goto(w, IF ring[w] > 0 THEN "sp_cancel" ELSE "sp_dbl_glob")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

SpDblGlob(w) ==
    /\ pc[w] = "sp_dbl_glob"
    /\ Goto(w, IF glob > 0 THEN "sp_cancel"
               ELSE IF DecBeforeBit /\ searching[w] THEN "pk_ns" ELSE "pk_bit")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

SpCancel(w) ==
    /\ pc[w] = "sp_cancel"
    /\ flag' = [flag EXCEPT ![w] = FALSE]
    /\ Goto(w, "fw_lifo")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

(***************************************************************************)
(* Transition to parked: bit (fetchOr), np++, ns-- if searching, then the *)
(* final check.                                                           *)
(***************************************************************************)
\* The label after the transition: which final check, if any.
\* With stealing disabled other workers' rings are not work for w (only their
\* owners take from them, and an owner with a non-empty ring is running), so
\* the corrected check looks at the global queue only; w's own ring is empty.
ChkSet(w) == IF SeedFinalCheck \/ ~Stealing THEN {G} ELSE {G} \cup (W \ {w})

AfterTransition(w, wasLast) ==
    IF NoFinalCheck THEN "pk_sleep"
    ELSE IF SeedFinalCheck /\ ~wasLast THEN "pk_sleep"
    ELSE "pk_chk"

PkBit(w) ==
    /\ pc[w] = "pk_bit"
    /\ bitmap' = bitmap \cup {w}
    /\ Goto(w, "pk_np")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

PkNp(w) ==
    /\ pc[w] = "pk_np"
    /\ np' = np + 1
    /\ IF searching[w] /\ ~DecBeforeBit
         THEN Goto(w, "pk_ns") /\ UNCHANGED chk
         ELSE /\ Goto(w, AfterTransition(w, last[w]))
              /\ chk' = [chk EXCEPT ![w] = ChkSet(w)]
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, victims, token, flag,
                   lifo, ring, glob, ns, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

PkNs(w) ==
    /\ pc[w] = "pk_ns"
    /\ ns' = ns - 1
    /\ searching' = [searching EXCEPT ![w] = FALSE]
    /\ last' = [last EXCEPT ![w] = NoSearcher(ns - 1) /\ DecBeforeBit]
    /\ IF DecBeforeBit
         THEN Goto(w, "pk_bit") /\ UNCHANGED chk
         ELSE /\ Goto(w, AfterTransition(w, NoSearcher(ns - 1)))
              /\ chk' = [chk EXCEPT ![w] = ChkSet(w)]
    /\ UNCHANGED <<gotTok, ret, tgt, claimed, victims, token, flag,
                   lifo, ring, glob, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* Final check: one Len() load per queue, global first.
PkChk(w) ==
    /\ pc[w] = "pk_chk"
    /\ IF chk[w] = {}
         THEN Goto(w, "pk_sleep") /\ UNCHANGED chk
         ELSE LET q == Min(chk[w]) IN
              IF (q = G /\ glob > 0) \/ (q # G /\ ring[q] > 0)
                THEN Goto(w, "pk_cancel") /\ chk' = [chk EXCEPT ![w] = {}]
                ELSE UNCHANGED pc /\ chk' = [chk EXCEPT ![w] = @ \ {q}]
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

CancelExit == IF SeedParkSeq THEN "sp_cancel" ELSE "fw_lifo"

\* Where ClaimWait continues: the seed's flag is still set on the cancel path
\* (it is cleared by sp_cancel); on the wake path it was already cleared.
ClaimExit(w) == IF flag[w] THEN "sp_cancel" ELSE "fw_lifo"

\* Work seen: fetchAnd own bit; the returned old value says who cleared it.
PkCancel(w) ==
    /\ pc[w] = "pk_cancel"
    /\ IF w \in bitmap
         THEN /\ bitmap' = bitmap \ {w}
              /\ Goto(w, "pk_cancel_np")
              /\ UNCHANGED <<searching, claimed>>
         ELSE IF ClaimWaitsToken
                THEN Goto(w, "claim_wait") /\ UNCHANGED <<bitmap, searching, claimed>>
                ELSE /\ claimed' = [claimed EXCEPT ![w] = FALSE]  \* claimed: credit given
                     /\ searching' = [searching EXCEPT ![w] = TRUE]
                     /\ Goto(w, CancelExit)
                     /\ UNCHANGED bitmap
    /\ UNCHANGED <<gotTok, ret, tgt, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

PkCancelNp(w) ==
    /\ pc[w] = "pk_cancel_np"
    /\ np' = np - 1
    /\ Goto(w, "pk_cancel_ns")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

PkCancelNs(w) ==
    /\ pc[w] = "pk_cancel_ns"
    /\ ns' = ns + 1
    /\ searching' = [searching EXCEPT ![w] = TRUE]
    /\ Goto(w, CancelExit)
    /\ UNCHANGED <<gotTok, ret, tgt, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

(***************************************************************************)
(* Sleep and wake.                                                        *)
(***************************************************************************)
WakeNext == IF SeedParkSeq THEN "wk_flag" ELSE "wk_reason"

PkSleep(w) ==
    /\ pc[w] = "pk_sleep"
    /\ token[w]
    /\ token' = [token EXCEPT ![w] = FALSE]
    /\ gotTok' = [gotTok EXCEPT ![w] = TRUE]
    /\ Goto(w, WakeNext)
    /\ UNCHANGED <<ret, tgt, searching, claimed, last, chk, victims, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* The parker may return without a token (futex, or a stale token).  Never fair.
SpuriousWake(w) ==
    /\ pc[w] = "pk_sleep"
    /\ ~token[w]
    /\ spurLeft > 0
    /\ spurLeft' = spurLeft - 1
    /\ gotTok' = [gotTok EXCEPT ![w] = FALSE]
    /\ Goto(w, WakeNext)
    /\ UNCHANGED <<ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, taken>>

WkFlag(w) ==
    /\ pc[w] = "wk_flag"
    /\ flag' = [flag EXCEPT ![w] = FALSE]
    /\ Goto(w, "wk_reason")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token,
                   lifo, ring, glob, ns, np, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* Corrected: fetchAnd(~bit) and decide on the returned old value.
\* Seed: load the bitmap; if the bit is still set, fetchAnd (result ignored).
WkReason(w) ==
    /\ pc[w] = "wk_reason"
    /\ IF w \in bitmap
         THEN /\ IF SeedWakeReason
                   THEN Goto(w, "wk_fetchand") /\ UNCHANGED bitmap
                   ELSE Goto(w, "wk_np") /\ bitmap' = bitmap \ {w}
              /\ UNCHANGED <<searching, claimed>>
         ELSE IF ClaimWaitsToken /\ ~gotTok[w]
                THEN Goto(w, "claim_wait") /\ UNCHANGED <<bitmap, searching, claimed>>
                ELSE /\ Goto(w, "fw_lifo") /\ UNCHANGED bitmap
                     /\ searching' = [searching EXCEPT ![w] = TRUE]
                     /\ claimed' = [claimed EXCEPT ![w] = FALSE]
    /\ gotTok' = [gotTok EXCEPT ![w] = FALSE]
    /\ UNCHANGED <<ret, tgt, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* Fix: our bit was cleared by a notifier, but we did not get its token yet.
\* The notifier's ns++ happens before its unpark, so wait for the unpark
\* (consuming the token) before acting on the searching credit.
ClaimWait(w) ==
    /\ pc[w] = "claim_wait"
    /\ token[w]
    /\ token' = [token EXCEPT ![w] = FALSE]
    /\ searching' = [searching EXCEPT ![w] = TRUE]
    /\ claimed' = [claimed EXCEPT ![w] = FALSE]
    /\ Goto(w, ClaimExit(w))
    /\ UNCHANGED <<gotTok, ret, tgt, last, chk, victims, flag, bitmap,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

WkFetchAnd(w) ==
    /\ pc[w] = "wk_fetchand"
    /\ bitmap' = bitmap \ {w}
    /\ Goto(w, "wk_np")
    /\ UNCHANGED <<gotTok, ret, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, np, extLeft, spawnLeft, longLeft, spurLeft, taken>>

\* Not a searcher.  Any claim credit still attached to w is dropped here (the
\* ghost records that the worker has left the parked state).
WkNp(w) ==
    /\ pc[w] = "wk_np"
    /\ np' = np - 1
    /\ searching' = [searching EXCEPT ![w] = FALSE]
    /\ claimed' = [claimed EXCEPT ![w] = FALSE]
    /\ Goto(w, "fw_lifo")
    /\ UNCHANGED <<gotTok, ret, tgt, last, chk, victims, token, flag,
                   lifo, ring, glob, ns, bitmap, extLeft, spawnLeft, longLeft, spurLeft, taken>>

(***************************************************************************)
(* The outside producer: global push then notify; with RemoteLIFO (seed)  *)
(* it may target a worker's LIFO slot after loading its flag.             *)
(***************************************************************************)
PIdle ==
    /\ pc[P] = "p_idle"
    /\ extLeft > 0
    /\ \/ /\ glob' = glob + 1
          /\ extLeft' = extLeft - 1
          /\ CallNotify(P, "p_idle")
          /\ UNCHANGED tgt
       \/ /\ RemoteLIFO
          /\ \E t \in W : tgt' = [tgt EXCEPT ![P] = t]
          /\ Goto(P, "p_loadflag")
          /\ UNCHANGED <<ret, glob, extLeft>>
    /\ UNCHANGED <<gotTok, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, ns, np, bitmap, spawnLeft, longLeft, spurLeft, taken>>

PLoadFlag ==
    /\ pc[P] = "p_loadflag"
    /\ IF flag[tgt[P]]
         THEN /\ glob' = glob + 1
              /\ extLeft' = extLeft - 1
              /\ CallNotify(P, "p_idle")
         ELSE Goto(P, "p_store") /\ UNCHANGED <<glob, extLeft, ret>>
    /\ UNCHANGED <<gotTok, tgt, searching, claimed, last, chk, victims, token, flag,
                   lifo, ring, ns, np, bitmap, spawnLeft, longLeft, spurLeft, taken>>

\* The task goes into the LIFO slot (a count here, so nothing is overwritten),
\* followed by a notify, which is more than the seed promises.
PStore ==
    /\ pc[P] = "p_store"
    /\ lifo' = [lifo EXCEPT ![tgt[P]] = @ + 1]
    /\ extLeft' = extLeft - 1
    /\ CallNotify(P, "p_idle")
    /\ UNCHANGED <<gotTok, tgt, searching, claimed, last, chk, victims, token, flag,
                   ring, glob, ns, np, bitmap, spawnLeft, longLeft, spurLeft, taken>>

\* The steps that leave held alone (all but the global queue's takes and
\* the batch's pushes).
KeepsHeld(w) ==
    \/ Notify(w)
    \/ FwLifo(w) \/ FwRing(w) \/ FwTry(w) \/ FwIncNs(w) \/ FwSteal(w)
    \/ TfDec(w) \/ Run(w)
    \/ SpFlag(w) \/ SpFlush(w) \/ SpDblRing(w) \/ SpDblGlob(w) \/ SpCancel(w)
    \/ PkBit(w) \/ PkNp(w) \/ PkNs(w) \/ PkChk(w)
    \/ PkCancel(w) \/ PkCancelNp(w) \/ PkCancelNs(w)
    \/ PkSleep(w) \/ WkFlag(w) \/ WkReason(w) \/ WkFetchAnd(w) \/ WkNp(w)
    \/ ClaimWait(w)

WorkerStep(w) ==
    \/ KeepsHeld(w) /\ UNCHANGED held
    \/ FwGlobFirst(w) \/ FwGlob(w) \/ FwPush(w)

ProducerStep == (Notify(P) \/ PIdle \/ PLoadFlag \/ PStore) /\ UNCHANGED held

Next ==
    \/ \E w \in W : WorkerStep(w) \/ (SpuriousWake(w) /\ UNCHANGED held)
    \/ ProducerStep

Spec == Init /\ [][Next]_vars

\* Weak fairness for every process's own steps; spurious wakes are not fair.
FairSpec == Spec /\ \A w \in W : WF_vars(WorkerStep(w)) /\ WF_vars(ProducerStep)

-----------------------------------------------------------------------------
(* Properties *)

TypeOK ==
    /\ ns \in Int /\ np \in Int
    /\ bitmap \subseteq W
    /\ glob \in Nat
    /\ taken \in 0 .. Total

\* Every task is in exactly one place: queued or taken, nothing invented.
Conservation ==
    Queued + taken = (ExtTasks - extLeft) + (SpawnTasks - spawnLeft)

Card(f) == Cardinality({w \in W : f[w]})

\* No process is between two halves of a paired counter update.
QuiescentNp ==
    /\ \A p \in Procs : pc[p] # "n_decnp"
    /\ \A w \in W : pc[w] \notin {"pk_np", "pk_cancel_np", "wk_np", "wk_fetchand"}
QuiescentNs ==
    \A p \in Procs : pc[p] \notin {"n_decnp", "n_incns"}

\* np agrees with the bitmap; ns agrees with searchers plus credits handed out.
NpAgrees == QuiescentNp => np = Cardinality(bitmap)
NsAgrees == QuiescentNs => ns = Card(searching) + Card(claimed)
CountersAgree == NpAgrees /\ NsAgrees

Asleep(w) == pc[w] = "pk_sleep" /\ ~token[w]
Unavailable(w) == Asleep(w) \/ pc[w] = "blocked"

\* No lost wakeup: it never happens that a task is queued, every worker is
\* asleep without a pending unpark token (or busy for ever), and no notify is
\* in flight.  With the park timeout off nothing would take that task.
NoStranded ==
    ~ (/\ Queued > 0
       /\ pc[P] = "p_idle"
       /\ \A w \in W : Unavailable(w))

\* Liveness: whatever is queued is eventually taken.
AllTaken == <>[](Queued = 0)
=============================================================================
