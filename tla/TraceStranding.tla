--------------------------- MODULE TraceStranding ---------------------------
(***************************************************************************)
(* Trace validation of Stranding, at the code's grain (its switches       *)
(* Arrivals .. LooseMonitor on: StrandCode*.cfg), against logs of          *)
(* impl/sched.  Built with -tags tlatrace, impl/sched records where its   *)
(* tasks go and who polls them (internal/tlatrace.Strand): a spawn from    *)
(* outside into the global queue (pushRemote: Arrive), a worker's take    *)
(* of its slot or ring (popLocal), of a global batch with the rest that   *)
(* goes to its ring (pollGlobal), of another worker's ring or slot        *)
(* (stealRing, stealSlot: Take), the end of a poll, ready or pending       *)
(* (execute: End), a blocker's wake of P into its slot (pushLIFO) or its  *)
(* spawn of P into its ring (pushLocal: Wake), and the monitor's flags,   *)
(* wakes of parked workers and starts of extra workers (check, unflag,    *)
(* help, extras.start).  tla/trace gives TLC a batch of logs as Logs.     *)
(*                                                                         *)
(* Observed: every task's place and every poll (loc, runs), the monitor's *)
(* flags and its help, and a notifier's claim of a parked worker         *)
(* (impl/idle's NFetchAnd: Notify).  Left free: when a worker parks or   *)
(* an extra worker retires, the wake of P during its own poll (the code's *)
(* task state machine takes it in a CAS that moves no task), and the     *)
(* monitor's sight of a waiting task (help's workAvailable: MonSee):     *)
(* Silent steps, any number between two records, each under its guard   *)
(* in the spec (a park only when nothing is there for the worker).  No   *)
(* parked worker wakes by itself: the scenarios set no park timeout.  A  *)
(* log is accepted iff SOME behaviour matches all its records            *)
(* (TLC's register 1 says how far each log got; the POSTCONDITION fails  *)
(* when one did not get to its end).                                       *)
(*                                                                         *)
(* Record fields: a (action), w (the worker, the code's index + 1), t (a  *)
(* task: "B1".."B4" or "P"), from (Take: the place the task was taken    *)
(* from), rest (Take from the global queue: the batch's other tasks),     *)
(* ok (End: ready), to (End pending, Wake: where the task goes), stale    *)
(* (Flag: the log holds a record of the worker's between the monitor's    *)
(* read of its tick count and the flag, tla/trace's StaleFlags; then      *)
(* MonFlagStale, else MonFlag).  Rest: the worker pushed a task of its    *)
(* batch's rest into its ring.                                            *)
(***************************************************************************)
EXTENDS Stranding, TLC, Sequences

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
    /\ Init
    /\ lg \in 1 .. Len(Logs) /\ log = Logs[lg] /\ i = 0

\* A worker's look, regular or extra.
LookOf(w) == IF w \in W THEN Look(w) ELSE ExtraLook(w)

\* w takes e.t from e.from and polls it; from the global queue, e.rest
\* goes along to w's ring.
Took(w, e) ==
    /\ loc[e.t] = e.from
    /\ loc'[e.t] = Place("run", w)
    /\ e.from = Global => {u \in Tasks \ {e.t} : loc[u] = Global /\ loc'[u] # Global} = e.rest

\* The step the record e describes, reading and writing what the code did.
Logged(e) == LET w == e.w IN
    \/ e.a = "Arrive"  /\ Arrive(e.t)
    \/ e.a = "Take"    /\ w \in All /\ LookOf(w) /\ Took(w, e)
    \/ e.a = "End"     /\ w \in All /\ EndPoll(w) /\ loc[e.t] \in {Place("run", w), Place("runw", w)}
                       /\ loc'[e.t] = IF e.ok THEN Done ELSE e.to
    \/ e.a = "Wake"    /\ w \in All /\ WakeP(w) /\ e.t = "P" /\ loc'["P"] = e.to
    \/ e.a = "Rest"    /\ w \in All /\ PushRest(w) /\ loc'[e.t] = Place("ring", w)
    \/ e.a = "Flag"    /\ w \in All /\ IF e.stale THEN MonFlagStale(w) ELSE MonFlag(w)
    \/ e.a = "Unflag"  /\ w \in All /\ MonUnflag(w)
    \/ e.a = "MonWake" /\ w \in W /\ MonWake(w)
    \/ e.a = "Notify"  /\ w \in W /\ NotifyWake(w)
    \/ e.a = "Extra"   /\ w \in X /\ MonExtra(w)

\* The spec's steps the log does not record (see the head comment).
Silent == \/ \E w \in All :
              \/ LookOf(w) /\ ws'[w] \in {"parked", "retired"}
              \/ WakeP(w) /\ loc'["P"].k = "runw"
          \/ MonSee

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
