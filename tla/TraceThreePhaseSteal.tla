------------------------ MODULE TraceThreePhaseSteal ------------------------
(***************************************************************************)
(* Trace validation of ThreePhaseSteal against logs of impl/queue's Ring.  *)
(* Built with -tags tlatrace, the Ring records each action of this spec    *)
(* it performs (internal/tlatrace), with the values it read or wrote, in   *)
(* one total order; tla/trace turns each log into a sequence of records    *)
(* and gives TLC a batch of them as the constant Logs.                     *)
(*                                                                         *)
(* A behaviour of this module follows one log, lg, record by record: each  *)
(* step is the action the record names, taken by the process it names     *)
(* (the spec's Next, restricted), and must read and write what the code    *)
(* read and wrote.  The log is a behaviour of ThreePhaseSteal iff every    *)
(* step is possible; when a record's action is not allowed, the behaviour  *)
(* stops short of the log's end and TLC reports a deadlock (exit 11), with *)
(* the states up to the last record matched.  Once the whole log matched,  *)
(* the behaviour stutters.  The spec's invariants hold along each log.     *)
(*                                                                         *)
(* Nothing is left free: the Ring logs every atomic operation and slot     *)
(* access of the spec, and each operation's start (PushBegin, PopBegin,    *)
(* StealBegin, which only set pc and the victim).  A claim that the code   *)
(* retries (after a lost CAS, or head and tail read at different times)    *)
(* is logged as the spec has it, a new steal: StealBegin, then StRoom with *)
(* the room and tail the code computed at the start and keeps.             *)
(*                                                                         *)
(* Record fields: a (action), p (process: the ring whose owner acts),      *)
(* v (the victim ring, StealBegin and StHead), s and r (a head read, as    *)
(* steal and real), t (a tail read or written; for StStore the position   *)
(* written), n (StClaim's batch; StRoom's room), ok (a CAS succeeded),     *)
(* task (the task read or written; 0 for none).  Positions are the code's *)
(* uint32 modulo M, which divides 2^32.                                    *)
(***************************************************************************)
EXTENDS ThreePhaseSteal, TLC

CONSTANT Logs          \* a sequence of logs, each a sequence of records

VARIABLES lg,          \* the index in Logs of the log this behaviour follows
          log,         \* that log (a copy: TLC evaluates Logs anew at each use)
          i            \* how many of its records have matched

traceVars == <<vars, lg, log, i>>

TraceInit == Init /\ lg \in 1 .. Len(Logs) /\ log = Logs[lg] /\ i = 0

\* The step the record e describes: the spec's action, and what the code read
\* and wrote.
Step(e) == LET p == e.p IN
    \/ e.a = "PushBegin" /\ PushBegin(p) /\ next[p] = e.task
    \/ e.a = "PushLoad"  /\ PushLoad(p) /\ tail[p] = e.t /\ hs'[p] = e.s /\ hr'[p] = e.r
    \/ e.a = "PushOvf"   /\ PushOvf(p) /\ (pc'[p] = "push_store") = e.ok
    \/ e.a = "PushStore" /\ PushStore(p) /\ tail[p] = e.t /\ next[p] = e.task
    \/ e.a = "PushPub"   /\ PushPub(p) /\ tail'[p] = e.t
    \/ e.a = "PopBegin"  /\ PopBegin(p)
    \/ e.a = "PopLoad"   /\ PopLoad(p) /\ hs'[p] = e.s /\ hr'[p] = e.r
    \/ e.a = "PopCas"    /\ PopCas(p) /\ (pc'[p] = "idle") = e.ok
                         /\ (e.ok => buf[p][Slot(hr[p])] = e.task)
    \/ e.a = "StealBegin" /\ StealBegin(p) /\ vic'[p] = e.v
    \/ e.a = "StRoom"    /\ StRoom(p) /\ dt'[p] = e.t /\ n'[p] = e.n
    \/ e.a = "StHead"    /\ StHead(p) /\ vic[p] = e.v /\ hs'[p] = e.s /\ hr'[p] = e.r
    \/ e.a = "StTail"    /\ StTail(p) /\ tail[vic[p]] = e.t
    \/ e.a = "StClaim"   /\ StClaim(p) /\ n[p] = e.n /\ (pc'[p] = "st_first") = e.ok
    \/ e.a = "StFirst"   /\ StFirst(p) /\ first'[p] = e.task
    \/ e.a = "StLoad"    /\ StLoad(p) /\ tmp'[p] = e.task
    \/ e.a = "StStore"   /\ StStore(p) /\ (dt[p] + k[p] - 1) % M = e.t /\ tmp[p] = e.task
    \/ e.a = "StPub"     /\ StPub(p) /\ tail'[p] = e.t
    \/ e.a = "StRelLoad" /\ StRelLoad(p) /\ hs'[p] = e.s /\ hr'[p] = e.r
    \/ e.a = "StRelCas"  /\ StRelCas(p) /\ (pc'[p] = "idle") = e.ok

TraceNext ==
    \/ /\ i < Len(log)
       /\ Step(log[i + 1])
       /\ i' = i + 1
       /\ UNCHANGED <<lg, log>>
    \/ /\ i = Len(log)            \* the whole log matched
       /\ UNCHANGED traceVars

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Every log is a behaviour of the spec: TLC finds no deadlock (a state with
\* records left and no step), so each behaviour reaches the end of its log.
=============================================================================
