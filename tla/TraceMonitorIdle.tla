-------------------------- MODULE TraceMonitorIdle --------------------------
(***************************************************************************)
(* Trace validation of MonitorIdle against logs of impl/sched.  Built with *)
(* -tags tlatrace, impl/sched records the monitor's steps on its idle flag *)
(* and the bitmap (watch's load of the bitmap: Look; monitor.sleep's store *)
(* of idle: StoreIdle; anyRunning's load: MonRecheck; the stores that      *)
(* clear idle: ClearIdle) and a worker's load of the flag after it left    *)
(* the parked set (leftParked: LoadIdle), and impl/idle records every      *)
(* write of the bitmap (idle.Park's fetch-or: GoPark; Unpark's and         *)
(* CancelPark's fetch-and: ClearBit; a notifier's claim: Notify) and the   *)
(* notifiers' loads of it, all in one total order (internal/tlatrace).     *)
(* tla/trace gives TLC a batch of logs as the constant Logs.               *)
(*                                                                         *)
(* Observed: the bitmap (each write, and each load's value), idle (each    *)
(* write, and each worker's load of it), and the monitor's place.  Left   *)
(* free: the parkers' tokens (wtoken, mtoken) and, between two records,    *)
(* the worker's place: the re-check (Recheck), a worker's and the         *)
(* monitor's wake (Wake, MonWake) are taken silently, any number of them   *)
(* between two records.  The log does not tell a wake by the park timeout  *)
(* (which the spec leaves out) from a re-check that found work: both are   *)
(* a ClearBit of a worker whose bit is set, and the spec reaches it by     *)
(* Recheck.  As for TraceIdleProtocol, a log is accepted iff SOME         *)
(* behaviour matches all its records; TLC's register 1 says how far each  *)
(* log got and the POSTCONDITION fails when one did not get to its end.    *)
(*                                                                         *)
(* Record fields: a (action), w (the worker, 1..N, of a worker's record    *)
(* or a claim's; 0 for the monitor's), bm (a bitmap loaded or, for        *)
(* NFetchAnd, its old value, as a set of workers 1..N), ok (ClearBit and   *)
(* NFetchAnd: the worker's bit was set; LoadIdle: idle was set).          *)
(***************************************************************************)
EXTENDS MonitorIdle, TLC, Sequences

CONSTANT Logs          \* a sequence of logs, each a sequence of records

VARIABLES lg,          \* the index in Logs of the log this behaviour follows
          log,         \* that log
          i            \* how many of its records have matched

traceVars == <<vars, lg, log, i>>

\* Register 1: for each log, the most records any behaviour matched.
Far == TLCGet(1)
Reach(k) == TLCSet(1, [Far EXCEPT ![lg] = IF k > @ THEN k ELSE @])

\* The monitor pairs (impl/sched's monitor/pair-*) run monitor.sleep alone,
\* as the monitor's loop does after a look that saw no worker run, while
\* the worker, not parked yet, runs: the monitor starts at "storeIdle".
\* The spec reaches that state from Init (the worker parks, the monitor
\* looks and sees it parked, the worker's re-check finds work and it
\* leaves the parked set, seeing idle clear). A batch of the pairs sets
\* "PairStart = TRUE"; the others start at Init.
PairStart == FALSE

InitPair ==
    /\ bit = [w \in W |-> FALSE]
    /\ wpc = [w \in W |-> "running"]
    /\ sawIdle = [w \in W |-> FALSE]
    /\ wtoken = [w \in W |-> FALSE]
    /\ idle = FALSE
    /\ mpc = "storeIdle"
    /\ mtoken = FALSE

TraceInit ==
    /\ TLCSet(1, [l \in 1 .. Len(Logs) |-> 0])
    /\ IF PairStart THEN InitPair ELSE Init
    /\ lg \in 1 .. Len(Logs) /\ log = Logs[lg] /\ i = 0

\* The bitmap the code loaded is the spec's.
Bits(S) == \A w \in W : bit[w] = (w \in S)

\* The step the record e describes, reading and writing what the code did.
Logged(e) == LET w == e.w IN
    \/ e.a = "PkBit"      /\ GoPark(w)
    \/ e.a \in {"WkReason", "PkCancel"} /\ bit[w] = e.ok /\ ClearBit(w)
    \/ e.a = "LoadIdle"   /\ idle = e.ok /\ LoadIdle(w)
    \/ e.a = "NFetchAnd"  /\ Bits(e.bm) /\ IF e.ok THEN Notify(w) ELSE UNCHANGED vars
    \/ e.a = "NLoadBm"    /\ Bits(e.bm) /\ UNCHANGED vars
    \/ e.a = "Look"       /\ Bits(e.bm) /\ Look
    \/ e.a = "StoreIdle"  /\ StoreIdle
    \/ e.a = "MonRecheck" /\ Bits(e.bm) /\ MonRecheck
    \/ e.a = "ClearIdle"  /\ ClearIdle

\* The spec's steps the log does not record: the re-check's verdict, the
\* parkers' wakes.  None touches the bitmap, idle or the monitor's place
\* but for MonWake, which only the monitor's next record (ClearIdle) can
\* follow.
Silent == \/ \E w \in W : Recheck(w) \/ Wake(w)
          \/ MonWake

TraceNext ==
    /\ i < Len(log)
    /\ \/ Silent /\ UNCHANGED <<lg, log, i>>
       \/ Logged(log[i + 1]) /\ i' = i + 1 /\ UNCHANGED <<lg, log>> /\ Reach(i + 1)

\* Every log got to its end; on failure it prints, for each log that did
\* not, how many of its records some behaviour matched.
TraceAccepted ==
    LET far == TLCGet(1)
        bad == {l \in 1 .. Len(Logs) : far[l] < Len(Logs[l])}
    IN  IF bad = {} THEN TRUE
        ELSE PrintT(<<"TRACE-REJECTED", [l \in bad |-> far[l]]>>) /\ FALSE
=============================================================================
