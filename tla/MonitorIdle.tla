---------------------------- MODULE MonitorIdle ----------------------------
(***************************************************************************)
(* The monitor's idle sleep against a worker leaving the parked set.       *)
(*                                                                         *)
(* While no worker runs, the monitor sleeps with no period (an idle        *)
(* runtime costs nothing). A worker that leaves the parked set (woken, or  *)
(* its park-time re-check found work) must then wake the monitor, or a     *)
(* poll of that worker that never returns is never looked at: no worker    *)
(* is flagged, none is woken or started, and the tasks queued behind it    *)
(* wait for ever (Stranding.tla shows what the monitor's look achieves;   *)
(* this spec checks that the look happens at all).                        *)
(*                                                                         *)
(* It is a Dekker pair (impl/sched monitor.sleep and worker.leftParked):   *)
(*   worker:  clear the own parked bit;  then load idle, wake if set       *)
(*   monitor: store idle;  then load the bitmap, stay awake if a bit is    *)
(*            clear; otherwise sleep until a worker wakes it              *)
(* With sequentially consistent atomics one of the two loads sees the      *)
(* other side's store. One step per atomic operation; the park timeout is *)
(* off (a lost wake is a sleep for ever). Timers and extra workers are    *)
(* left out: the monitor's timer sleep ends at its deadline, and extra    *)
(* workers are started by the monitor itself, which therefore knows of    *)
(* them (extras.running, read beside the bitmap).                         *)
(*                                                                         *)
(* Design switches (the .cfg files):                                       *)
(*   Order           "clear-then-load", as implemented, or                 *)
(*                   "load-then-clear": the worker reads idle first        *)
(*   MonitorRecheck  the monitor loads the bitmap after storing idle       *)
(*                                                                         *)
(* docs/tla.md maps every action to the Go code.                           *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS
    N,              \* workers
    Order,          \* "clear-then-load" or "load-then-clear"
    MonitorRecheck  \* BOOLEAN

ASSUME N \in 1..3 /\ Order \in {"clear-then-load", "load-then-clear"} /\ MonitorRecheck \in BOOLEAN

W == 1..N

VARIABLES
    bit,     \* [W -> BOOLEAN]: the parked bitmap (idle.State.bitmap)
    wpc,     \* [W -> ...]: where each worker is
    sawIdle, \* [W -> BOOLEAN]: the idle flag as loaded, in the swapped order
    wtoken,  \* [W -> BOOLEAN]: each worker's parker holds a wake (sticky)
    idle,    \* BOOLEAN: monitor.idle
    mpc,     \* where the monitor is
    mtoken   \* BOOLEAN: the monitor's parker holds a wake (sticky)

vars == <<bit, wpc, sawIdle, wtoken, idle, mpc, mtoken>>

\* Worker places:
\*   "running"    between parks: polling (perhaps for ever) or searching
\*   "recheck"    parked bit set (idle.Park), the park-time re-check next
\*   "parked"     asleep on its parker
\*   "leave"      woke, or the re-check found work: the fetch-and of
\*                idle.Unpark / CancelPark next (or, swapped, the idle load)
\*   "loadIdle"   bit clear, leftParked's load of idle next
\*   "clearAfter" (swapped order) idle loaded, the fetch-and next
\* Monitor places:
\*   "look"       watch: loads the bitmap, decides whether any worker runs
\*   "storeIdle"  no worker ran: store idle next
\*   "recheck"    idle stored: anyRunning's load of the bitmap next
\*   "sleep"      asleep on its parker with no timeout
\*   "clearIdle"  woke: clear idle, then look again

Init ==
    /\ bit = [w \in W |-> FALSE]
    /\ wpc = [w \in W |-> "running"]
    /\ sawIdle = [w \in W |-> FALSE]
    /\ wtoken = [w \in W |-> FALSE]
    /\ idle = FALSE
    /\ mpc = "look"
    /\ mtoken = FALSE

-----------------------------------------------------------------------------
(* The worker *)

\* worker.park (a), idle.Park: the fetch-or of the own bit. Not fair: a
\* poll may run for ever, and so may a worker's own work.
GoPark(w) ==
    /\ wpc[w] = "running"
    /\ bit' = [bit EXCEPT ![w] = TRUE]
    /\ wpc' = [wpc EXCEPT ![w] = "recheck"]
    /\ UNCHANGED <<sawIdle, wtoken, idle, mpc, mtoken>>

\* worker.park (c): the re-check of the queues. What it finds is another
\* spec's business (IdleProtocol.tla): here it may find work or not.
Recheck(w) ==
    /\ wpc[w] = "recheck"
    /\ \E found \in BOOLEAN : wpc' = [wpc EXCEPT ![w] = IF found THEN "leave" ELSE "parked"]
    /\ UNCHANGED <<bit, sawIdle, wtoken, idle, mpc, mtoken>>

\* worker.park (d): the parker's sleep ends when a wake is there.
Wake(w) ==
    /\ wpc[w] = "parked"
    /\ wtoken[w]
    /\ wtoken' = [wtoken EXCEPT ![w] = FALSE]
    /\ wpc' = [wpc EXCEPT ![w] = "leave"]
    /\ UNCHANGED <<bit, sawIdle, idle, mpc, mtoken>>

\* idle.Unpark / CancelPark: the fetch-and that clears the own bit (it may
\* be clear already: a notifier claimed the worker). As implemented, the
\* load of idle comes after it.
ClearBit(w) ==
    /\ Order = "clear-then-load"
    /\ wpc[w] = "leave"
    /\ bit' = [bit EXCEPT ![w] = FALSE]
    /\ wpc' = [wpc EXCEPT ![w] = "loadIdle"]
    /\ UNCHANGED <<sawIdle, wtoken, idle, mpc, mtoken>>

\* worker.leftParked: load idle; if set, unpark the monitor.
LoadIdle(w) ==
    /\ wpc[w] = "loadIdle"
    /\ mtoken' = (mtoken \/ idle)
    /\ wpc' = [wpc EXCEPT ![w] = "running"]
    /\ UNCHANGED <<bit, sawIdle, wtoken, idle, mpc>>

\* The swapped order: idle is loaded before the bit is cleared.
LoadIdleFirst(w) ==
    /\ Order = "load-then-clear"
    /\ wpc[w] = "leave"
    /\ sawIdle' = [sawIdle EXCEPT ![w] = idle]
    /\ wpc' = [wpc EXCEPT ![w] = "clearAfter"]
    /\ UNCHANGED <<bit, wtoken, idle, mpc, mtoken>>

ClearBitAfter(w) ==
    /\ wpc[w] = "clearAfter"
    /\ bit' = [bit EXCEPT ![w] = FALSE]
    /\ mtoken' = (mtoken \/ sawIdle[w])
    /\ wpc' = [wpc EXCEPT ![w] = "running"]
    /\ UNCHANGED <<sawIdle, wtoken, idle, mpc>>

\* A publisher's notify (idle.ClaimParked, then the worker's Unpark):
\* clears the bit of a parked worker and leaves it a wake. Not fair: work
\* is published or not.
Notify(w) ==
    /\ bit[w]
    /\ bit' = [bit EXCEPT ![w] = FALSE]
    /\ wtoken' = [wtoken EXCEPT ![w] = TRUE]
    /\ UNCHANGED <<wpc, sawIdle, idle, mpc, mtoken>>

-----------------------------------------------------------------------------
(* The monitor *)

AnyRunning == \E w \in W : ~bit[w]

\* watch: the bitmap decides whether any worker runs. If one does, the
\* monitor sleeps for its period (a timed park, which also takes a wake
\* left for it) and looks again; otherwise it goes to sleep idle.
Look ==
    /\ mpc = "look"
    /\ IF AnyRunning
       THEN /\ mtoken' = FALSE
            /\ UNCHANGED mpc
       ELSE /\ mpc' = "storeIdle"
            /\ UNCHANGED mtoken
    /\ UNCHANGED <<bit, wpc, sawIdle, wtoken, idle>>

\* monitor.sleep: the store of idle (the store half of its side).
StoreIdle ==
    /\ mpc = "storeIdle"
    /\ idle' = TRUE
    /\ mpc' = IF MonitorRecheck THEN "recheck" ELSE "sleep"
    /\ UNCHANGED <<bit, wpc, sawIdle, wtoken, mtoken>>

\* The code clears idle after a re-check that saw a worker run with a
\* store of its own (monitor.sleep), so a worker's load of idle may fall
\* between the re-check and that store and see idle set. With ClearApart
\* the re-check goes to "clearIdle" (ClearIdle then stores it, and the
\* next Look takes any wake, as the period's sleep does); without it the
\* two are one step. Trace validation of impl/sched's logs needs it
\* (docs/tla.md, "MonitorIdle"). A definition, FALSE, so that the older
\* configurations keep their state counts; a configuration sets it with
\* "ClearApart = TRUE" (MonitorIdleApart.cfg, and the trace's model).
ClearApart == FALSE

\* anyRunning: the load half. A worker runs: clear idle, sleep for the
\* period (taking any wake), look again.
MonRecheck ==
    /\ mpc = "recheck"
    /\ IF AnyRunning
       THEN IF ClearApart
            THEN /\ mpc' = "clearIdle"
                 /\ UNCHANGED <<idle, mtoken>>
            ELSE /\ idle' = FALSE
                 /\ mtoken' = FALSE
                 /\ mpc' = "look"
       ELSE /\ mpc' = "sleep"
            /\ UNCHANGED <<idle, mtoken>>
    /\ UNCHANGED <<bit, wpc, sawIdle, wtoken>>

\* The parker's sleep with no timeout ends when a wake is there.
MonWake ==
    /\ mpc = "sleep"
    /\ mtoken
    /\ mtoken' = FALSE
    /\ mpc' = "clearIdle"
    /\ UNCHANGED <<bit, wpc, sawIdle, wtoken, idle>>

ClearIdle ==
    /\ mpc = "clearIdle"
    /\ idle' = FALSE
    /\ mpc' = "look"
    /\ UNCHANGED <<bit, wpc, sawIdle, wtoken, mtoken>>

Next ==
    \/ \E w \in W : \/ GoPark(w) \/ Recheck(w) \/ Wake(w) \/ ClearBit(w)
                    \/ LoadIdle(w) \/ LoadIdleFirst(w) \/ ClearBitAfter(w) \/ Notify(w)
    \/ Look \/ StoreIdle \/ MonRecheck \/ MonWake \/ ClearIdle

\* Every goroutine's next step happens once it is enabled for good, except
\* the two that are the program's choice, not the scheduler's: a worker
\* going to park (its poll may never return) and a publisher's notify.
Fairness ==
    /\ \A w \in W : /\ WF_vars(Recheck(w)) /\ WF_vars(Wake(w)) /\ WF_vars(ClearBit(w))
                    /\ WF_vars(LoadIdle(w)) /\ WF_vars(LoadIdleFirst(w)) /\ WF_vars(ClearBitAfter(w))
    /\ WF_vars(Look) /\ WF_vars(StoreIdle) /\ WF_vars(MonRecheck) /\ WF_vars(MonWake) /\ WF_vars(ClearIdle)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties *)

TypeOK ==
    /\ bit \in [W -> BOOLEAN]
    /\ wpc \in [W -> {"running", "recheck", "parked", "leave", "loadIdle", "clearAfter"}]
    /\ sawIdle \in [W -> BOOLEAN]
    /\ wtoken \in [W -> BOOLEAN]
    /\ idle \in BOOLEAN
    /\ mpc \in {"look", "storeIdle", "recheck", "sleep", "clearIdle"}
    /\ mtoken \in BOOLEAN

\* A worker out of the parked set that has still to look at idle, with
\* what it will see deciding whether it wakes the monitor.
OnItsWay(w) ==
    \/ wpc[w] \in {"leave", "loadIdle"}
    \/ wpc[w] \in {"recheck", "parked"} /\ wtoken[w]  \* claimed by a notifier: it will wake
    \/ wpc[w] = "clearAfter" /\ sawIdle[w]

\* The safety form of "no lost wake": while the monitor sleeps with no
\* wake pending, every worker is parked or on its way to wake it. A
\* worker out of the parked set and past its look at idle, while the
\* monitor sleeps unwoken, is a worker whose polls nobody watches.
MonitorWatches ==
    (mpc = "sleep" /\ ~mtoken) => \A w \in W : bit[w] \/ OnItsWay(w)

\* The sleeping monitor holds idle set, so a worker's look sees it.
IdleWhileAsleep == mpc \in {"recheck", "sleep"} => idle

\* Liveness: a worker that runs (perhaps for ever) is eventually watched:
\* the monitor is not asleep for good.
EventuallyWatched == \A w \in W : (wpc[w] = "running") ~> (mpc # "sleep")
=============================================================================
