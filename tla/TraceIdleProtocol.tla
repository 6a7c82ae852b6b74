------------------------- MODULE TraceIdleProtocol -------------------------
(***************************************************************************)
(* Trace validation of IdleProtocol against logs of impl/idle.  Built with *)
(* -tags tlatrace, impl/idle records each operation of the idle state (the *)
(* counters ns and np, the parked bitmap) as the spec's action, with the   *)
(* value it read or wrote, in one total order (internal/tlatrace); the     *)
(* acting process is the worker whose goroutine acts (impl/sched binds     *)
(* each worker goroutine), or the producer P for a goroutine that is no    *)
(* worker.  tla/trace gives TLC a batch of logs as the constant Logs.      *)
(*                                                                         *)
(* The log observes ns, np and the bitmap only.  The rest of the spec's    *)
(* state (the queues, the tokens, the workers' program counters between    *)
(* two logged actions) is left free: between two records a behaviour may  *)
(* take any number of the spec's other actions (Silent), which touch none *)
(* of the observed variables.  A log is a behaviour of the spec iff some  *)
(* behaviour of this module matches all its records.  That is an          *)
(* existence, not an invariant: TLC records in register 1 how far each log *)
(* got (TLCSet, with -workers 1), and the POSTCONDITION fails, printing    *)
(* the furthest record matched per log, when a log did not get to its end. *)
(*                                                                         *)
(* Record fields: a (action), p (process: worker index, or N for P), w     *)
(* (the worker a claim or a park is about), x (a counter read, or its     *)
(* value after an update), bm (a bitmap read, as a set of worker ids), ok *)
(* (a fetch-and found the bit set; PkNp: the parker was searching).        *)
(***************************************************************************)
EXTENDS IdleProtocol, TLC, Sequences

CONSTANT Logs          \* a sequence of logs, each a sequence of records

VARIABLES lg,          \* the index in Logs of the log this behaviour follows
          log,         \* that log
          i            \* how many of its records have matched

traceVars == <<vars, lg, log, i>>

\* Register 1: for each log, the most records any behaviour matched.
Far == TLCGet(1)
Reach(k) == TLCSet(1, [Far EXCEPT ![lg] = IF k > @ THEN k ELSE @])

TraceInit ==
    /\ TLCSet(1, [l \in 1 .. Len(Logs) |-> 0])
    /\ Init /\ lg \in 1 .. Len(Logs) /\ log = Logs[lg] /\ i = 0

\* The step the record e describes: the spec's action, by the process the
\* record names, reading and writing what the code read and wrote.
Logged(e) == LET p == e.p IN
    \/ e.a = "FwTry"      /\ p \in W /\ ~searching[p] /\ FwTry(p) /\ ns = e.x
    \/ e.a = "FwIncNs"    /\ p \in W /\ FwIncNs(p) /\ ns' = e.x
    \/ e.a = "TfDec"      /\ p \in W /\ TfDec(p) /\ ns' = e.x
    \/ e.a = "NLoadNs"    /\ NLoadNs(p) /\ ns = e.x
    \/ e.a = "NLoadBm"    /\ NLoadBm(p) /\ bitmap = e.bm
    \/ e.a = "NFetchAnd"  /\ NFetchAnd(p) /\ tgt[p] = e.w /\ (e.w \in bitmap) = e.ok
    \/ e.a = "NDecNp"     /\ NDecNp(p) /\ tgt[p] = e.w /\ np' = e.x
    \/ e.a = "NIncNs"     /\ NIncNs(p) /\ tgt[p] = e.w /\ ns' = e.x
    \/ e.a = "PkBit"      /\ p = e.w /\ PkBit(p)
    \/ e.a = "PkNp"       /\ p = e.w /\ PkNp(p) /\ searching[p] = e.ok /\ np' = e.x
    \/ e.a = "PkNs"       /\ p = e.w /\ PkNs(p) /\ ns' = e.x
    \/ e.a = "PkCancel"   /\ p = e.w /\ PkCancel(p) /\ (p \in bitmap) = e.ok
    \/ e.a = "PkCancelNp" /\ p = e.w /\ PkCancelNp(p) /\ np' = e.x
    \/ e.a = "PkCancelNs" /\ p = e.w /\ PkCancelNs(p) /\ ns' = e.x
    \/ e.a = "WkReason"   /\ p = e.w /\ WkReason(p) /\ (p \in bitmap) = e.ok
    \/ e.a = "WkNp"       /\ p = e.w /\ WkNp(p) /\ np' = e.x

\* The spec's actions the log does not record: queue operations, running a
\* task, the re-check's loads of the queues, sleeping and the unpark token,
\* the producer's push, and a searcher's skip of tryBecomeSearcher.  None
\* touches ns, np or the bitmap.  (The seeds' actions and ClaimWait are off
\* in the configurations the trace uses.)
\* With GlobalBatch, a take of the global queue holds the batch's rest and
\* FwPush puts it into the ring, one task a step: silent too.
Silent ==
    \/ \E w \in W :
         \/ FwGlobFirst(w) \/ FwGlob(w) \/ FwPush(w)
         \/ UNCHANGED held /\
              \/ FwLifo(w) \/ FwRing(w) \/ (searching[w] /\ FwTry(w))
              \/ FwSteal(w)
              \/ Run(w) \/ PkChk(w) \/ PkSleep(w) \/ SpuriousWake(w)
              \/ NUnpark(w)
    \/ UNCHANGED held /\ (PIdle \/ NUnpark(P))

TraceNext ==
    /\ i < Len(log)
    /\ \/ Silent /\ UNCHANGED <<lg, log, i>>
       \/ Logged(log[i + 1]) /\ UNCHANGED held /\ i' = i + 1 /\ UNCHANGED <<lg, log>> /\ Reach(i + 1)

\* Every log got to its end.  On failure it prints, for each log, how many
\* of its records some behaviour matched (the record after them is the one
\* the spec does not allow).
TraceAccepted ==
    LET far == TLCGet(1)
        bad == {l \in 1 .. Len(Logs) : far[l] < Len(Logs[l])}
    IN  IF bad = {} THEN TRUE
        ELSE PrintT(<<"TRACE-REJECTED", [l \in bad |-> far[l]]>>) /\ FALSE
=============================================================================
