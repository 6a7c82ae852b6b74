--------------------------- MODULE ThreePhaseSteal ---------------------------
(***************************************************************************)
(* The per-worker ring: a CAP-slot circular buffer with a packed head     *)
(* [steal | real] and a tail only its owner writes.  Owner Push (with     *)
(* overflow of half the ring to the global queue when full and no steal   *)
(* is in flight, and only the new task to the global queue when a steal   *)
(* is in flight), owner Pop (FIFO, CAS on the packed head), and the       *)
(* three-phase StealInto: claim CAS advancing real, copy slot by slot     *)
(* then publish the thief's tail, release CAS setting steal := real.      *)
(*                                                                         *)
(* Ring 0 belongs to the owner, which pushes tasks 1..T0 and pops.  Rings *)
(* 1 and 2 belong to two thieves, which pop their own ring and steal from *)
(* the rings in V1 and V2; thief 1 may also push tasks into its own ring  *)
(* (T1), so that a thief's ring can be full when it steals.  With V2      *)
(* containing ring 1, steals chain: thief 2 steals from a ring whose      *)
(* owner is itself in the middle of a steal into it.                      *)
(*                                                                         *)
(* Each load, store, swap and CAS on shared state is one action; values   *)
(* read are kept in per-process variables.  A thief takes each claimed    *)
(* slot with a swap that leaves nil behind (Go: take), then stores it in  *)
(* its own ring.  A process's accesses to its OWN slots right after a     *)
(* successful CAS (Pop's take, the overflow batch) are folded into that   *)
(* CAS step: only a ring's owner writes slots outside claims, so nothing  *)
(* can interleave there.  Pushing to the global queue is folded likewise  *)
(* (nothing in this model reads the global queue).                        *)
(* Indices live modulo M (M > CAP, a power of two), as uint32 do in Go,   *)
(* and start at Start so that behaviours cross the wrap-around.           *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, Sequences

CONSTANTS
    CAP,        \* ring slots (Go: 256)
    M,          \* index modulus (Go: 2^32); a multiple of CAP, > CAP
    Start,      \* initial head and tail of every ring (NewRingAt)
    T0,         \* tasks 1..T0 are pushed by the owner of ring 0
    T1,         \* tasks T0+1..T0+T1 are pushed by thief 1 into its own ring
    V1, V2,     \* the rings thief 1 and thief 2 steal from
    \* Bug switches (all FALSE: the algorithm impl/queue implements).
    NoDstRoomCheck,       \* StealInto does not refuse when dst lacks room for n-1
    OverflowDuringSteal,  \* Push overflows half even while a steal is in flight
    NoStealInFlightCheck, \* StealInto claims even while another steal is in flight
    PushBoundByReal       \* Push measures fullness as tail - real, not tail - steal

H == CAP \div 2            \* MaxSteal, and the overflow batch
R == 0 .. 2                \* rings; process r owns ring r
Thieves == {1, 2}
T == T0 + T1
Tasks == 1 .. T
Pushers == {0, 1}
First(p) == IF p = 0 THEN 1 ELSE T0 + 1         \* first task pushed by p
Last(p) == IF p = 0 THEN T0 ELSE T0 + T1        \* last task pushed by p
Owner(t) == IF t <= T0 THEN 0 ELSE 1
Victims(p) == IF p = 1 THEN V1 ELSE V2
None == 0

Dist(a, b) == (b - a + M) % M          \* b - a in wrapping arithmetic
Slot(i) == i % CAP
Min2(a, b) == IF a < b THEN a ELSE b
SetMin(S) == CHOOSE x \in S : \A y \in S : x <= y

VARIABLES
    steal, real, tail,   \* [R -> 0..M-1]
    buf,                 \* [R -> [0..CAP-1 -> Tasks \cup {None}]]
    glob,                \* [Tasks -> Nat]  copies of each task in the global queue
    done,                \* [Tasks -> Nat]  times each task was taken to run
    next,                \* [Pushers -> task]  next task p pushes (Last(p)+1: all pushed)
    pc,                  \* [R -> label]
    hs, hr,              \* [R -> index]  head (steal, real) as last loaded
    vic,                 \* [R -> R]      victim of the steal in progress
    n,                   \* [R -> Nat]    tasks claimed by the steal in progress
    dt,                  \* [R -> index]  thief's own tail when it claimed
    k,                   \* [R -> Nat]    next source offset to copy
    tmp,                 \* [R -> task]   loaded, not yet stored
    first,               \* [R -> task]   the task StealInto returns
    clobber              \* a slot was written while it still held a needed task

vars == <<steal, real, tail, buf, glob, done, next, pc, hs, hr, vic, n, dt, k,
          tmp, first, clobber>>
locals == <<hs, hr, vic, n, dt, k, tmp, first>>

Init ==
    /\ steal = [r \in R |-> Start] /\ real = [r \in R |-> Start]
    /\ tail = [r \in R |-> Start]
    /\ buf = [r \in R |-> [i \in 0 .. CAP - 1 |-> None]]
    /\ glob = [t \in Tasks |-> 0] /\ done = [t \in Tasks |-> 0]
    /\ next = [p \in Pushers |-> First(p)]
    /\ pc = [r \in R |-> "idle"]
    /\ hs = [r \in R |-> 0] /\ hr = [r \in R |-> 0]
    /\ vic = [r \in R |-> 0] /\ n = [r \in R |-> 0] /\ dt = [r \in R |-> 0]
    /\ k = [r \in R |-> 0] /\ tmp = [r \in R |-> None] /\ first = [r \in R |-> None]
    /\ clobber = FALSE

Goto(p, l) == pc' = [pc EXCEPT ![p] = l]

\* A thief's copy is in progress on some victim.
Copying(q) == pc[q] \in {"st_first", "st_load", "st_store"}

\* Source offsets (from hr) a thief has claimed and not read yet.
Unread(q) ==
    CASE pc[q] = "st_first" -> 0 .. n[q] - 1
      [] pc[q] = "st_load"  -> k[q] .. n[q] - 1
      [] pc[q] = "st_store" -> (k[q] + 1) .. n[q] - 1
      [] OTHER              -> {}

\* Slots of ring r whose content somebody still needs: the live range
\* [real, tail) and every unread slot of a claim on r.
Needed(r) ==
    {Slot(real[r] + j) : j \in 0 .. Dist(real[r], tail[r]) - 1}
    \cup UNION {{Slot(hr[q] + j) : j \in Unread(q)} : q \in {q2 \in Thieves : Copying(q2) /\ vic[q2] = r}}

Write(r, i, t) ==
    /\ buf' = [buf EXCEPT ![r][Slot(i)] = t]
    /\ clobber' = (clobber \/ Slot(i) \in Needed(r))

-----------------------------------------------------------------------------
(* Owners of rings 0 and 1: Push *)

PushBegin(p) ==
    /\ pc[p] = "idle" /\ next[p] <= Last(p)
    /\ Goto(p, "push_load")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, locals, clobber>>

\* Load the packed head and decide: room, single task to global, or overflow.
PushLoad(p) ==
    /\ pc[p] = "push_load"
    /\ hs' = [hs EXCEPT ![p] = steal[p]] /\ hr' = [hr EXCEPT ![p] = real[p]]
    /\ LET room == IF PushBoundByReal THEN Dist(real[p], tail[p]) < CAP
                   ELSE Dist(steal[p], tail[p]) < CAP
       IN
       IF room
         THEN Goto(p, "push_store") /\ UNCHANGED <<glob, next>>
       ELSE IF steal[p] # real[p] /\ ~OverflowDuringSteal
         THEN \* a steal is in flight: only the new task goes to the global queue
              /\ glob' = [glob EXCEPT ![next[p]] = @ + 1]
              /\ next' = [next EXCEPT ![p] = @ + 1]
              /\ Goto(p, "idle")
         ELSE Goto(p, "push_ovf") /\ UNCHANGED <<glob, next>>
    /\ UNCHANGED <<steal, real, tail, buf, done, vic, n, dt, k, tmp, first, clobber>>

\* Overflow: CAS head (s, r) -> (s+H, r+H); on success the H oldest tasks go to
\* the global queue in one batch (own slots, folded in), then the new task is
\* stored.  On failure, reload the head.
PushOvf(p) ==
    /\ pc[p] = "push_ovf"
    /\ IF steal[p] = hs[p] /\ real[p] = hr[p]
         THEN /\ steal' = [steal EXCEPT ![p] = (hs[p] + H) % M]
              /\ real' = [real EXCEPT ![p] = (hr[p] + H) % M]
              /\ glob' = [t \in Tasks |-> glob[t] +
                            Cardinality({j \in 0 .. H - 1 : buf[p][Slot(hr[p] + j)] = t})]
              /\ buf' = [buf EXCEPT ![p] = [i \in 0 .. CAP - 1 |->
                            IF i \in {Slot(hr[p] + j) : j \in 0 .. H - 1} THEN None ELSE @[i]]]
              /\ Goto(p, "push_store")
         ELSE Goto(p, "push_load") /\ UNCHANGED <<steal, real, glob, buf>>
    /\ UNCHANGED <<tail, done, next, locals, clobber>>

PushStore(p) ==
    /\ pc[p] = "push_store"
    /\ Write(p, tail[p], next[p])
    /\ Goto(p, "push_pub")
    /\ UNCHANGED <<steal, real, tail, glob, done, next, locals>>

PushPub(p) ==
    /\ pc[p] = "push_pub"
    /\ tail' = [tail EXCEPT ![p] = (@ + 1) % M]
    /\ next' = [next EXCEPT ![p] = @ + 1]
    /\ Goto(p, "idle")
    /\ UNCHANGED <<steal, real, buf, glob, done, locals, clobber>>

-----------------------------------------------------------------------------
(* Every process: Pop from its own ring (FIFO) *)

PopBegin(p) ==
    /\ pc[p] = "idle"
    /\ Goto(p, "pop_load")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, locals, clobber>>

PopLoad(p) ==
    /\ pc[p] = "pop_load"
    /\ hs' = [hs EXCEPT ![p] = steal[p]] /\ hr' = [hr EXCEPT ![p] = real[p]]
    /\ Goto(p, IF real[p] = tail[p] THEN "idle" ELSE "pop_cas")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, vic, n, dt, k, tmp, first, clobber>>

\* CAS the packed head; the take of the slot (Swap(nil)) that follows is
\* folded in: own slot, outside every claim once the CAS succeeded.
PopCas(p) ==
    /\ pc[p] = "pop_cas"
    /\ IF steal[p] = hs[p] /\ real[p] = hr[p]
         THEN /\ real' = [real EXCEPT ![p] = (hr[p] + 1) % M]
              /\ steal' = IF hs[p] = hr[p]
                            THEN [steal EXCEPT ![p] = (hr[p] + 1) % M]
                            ELSE steal
              /\ LET t == buf[p][Slot(hr[p])] IN
                 done' = IF t = None THEN done ELSE [done EXCEPT ![t] = @ + 1]
              /\ buf' = [buf EXCEPT ![p][Slot(hr[p])] = None]
              /\ Goto(p, "idle")
         ELSE Goto(p, "pop_load") /\ UNCHANGED <<steal, real, done, buf>>
    /\ UNCHANGED <<tail, glob, next, locals, clobber>>

-----------------------------------------------------------------------------
(* Thieves: StealInto(src = vic, dst = own ring) *)

StealBegin(p) ==
    /\ pc[p] = "idle" /\ p \in Thieves
    /\ \E v \in Victims(p) : vic' = [vic EXCEPT ![p] = v]
    /\ Goto(p, "st_room")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, hs, hr, n, dt, k, tmp, first, clobber>>

\* Load src head; refuse if a steal from src is already in flight.
StHead(p) ==
    /\ pc[p] = "st_head"
    /\ LET v == vic[p] IN
       /\ hs' = [hs EXCEPT ![p] = steal[v]] /\ hr' = [hr EXCEPT ![p] = real[v]]
       /\ Goto(p, IF steal[v] # real[v] /\ ~NoStealInFlightCheck THEN "idle" ELSE "st_tail")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, vic, n, dt, k, tmp, first, clobber>>

\* Load src tail; size the batch, ceil(avail/2) capped at H, and refuse
\* unless dst has room for all but the first.  avail > CAP means head and
\* tail come from different moments: give up (the claim CAS would fail).
StTail(p) ==
    /\ pc[p] = "st_tail"
    /\ LET avail == Dist(hr[p], tail[vic[p]])
           want == Min2(avail - avail \div 2, H)
           room == n[p]
       IN
       IF avail = 0 \/ avail > CAP \/ (want - 1 > room /\ ~NoDstRoomCheck)
         THEN Goto(p, "idle") /\ UNCHANGED n
         ELSE /\ n' = [n EXCEPT ![p] = want]
              /\ Goto(p, "st_claim")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, hs, hr, vic, dt, k, tmp, first, clobber>>

\* Read the own tail (only this thread writes it) and load the own head:
\* room = CAP - (tail - steal), the positions that may still be written.
\* (Go: StealInto's dst.tail.Load and roomAt.)  The room is kept in n until
\* the batch is sized.
StRoom(p) ==
    /\ pc[p] = "st_room"
    /\ dt' = [dt EXCEPT ![p] = tail[p]]
    /\ n' = [n EXCEPT ![p] = CAP - Dist(steal[p], tail[p])]
    /\ Goto(p, "st_head")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, hs, hr, vic, k, tmp, first, clobber>>

\* Phase 1: claim.  CAS src head (s, r) -> (s, r+n).  A lost race gives up
\* (Go retries a bounded number of times; a retry is a fresh attempt here).
StClaim(p) ==
    /\ pc[p] = "st_claim"
    /\ LET v == vic[p] IN
       IF steal[v] = hs[p] /\ real[v] = hr[p]
         THEN /\ real' = [real EXCEPT ![v] = (hr[p] + n[p]) % M]
              /\ Goto(p, "st_first")
         ELSE Goto(p, "idle") /\ UNCHANGED real
    /\ UNCHANGED <<steal, tail, buf, glob, done, next, locals, clobber>>

\* Phase 2: copy.  Load the first task (returned, not copied).
StFirst(p) ==
    /\ pc[p] = "st_first"
    /\ first' = [first EXCEPT ![p] = buf[vic[p]][Slot(hr[p])]]
    /\ buf' = [buf EXCEPT ![vic[p]][Slot(hr[p])] = None]      \* take: Swap(nil)
    /\ k' = [k EXCEPT ![p] = 1]
    /\ Goto(p, IF n[p] > 1 THEN "st_load" ELSE "st_rel_load")
    /\ UNCHANGED <<steal, real, tail, glob, done, next, hs, hr, vic, n, dt, tmp, clobber>>

StLoad(p) ==
    /\ pc[p] = "st_load"
    /\ tmp' = [tmp EXCEPT ![p] = buf[vic[p]][Slot(hr[p] + k[p])]]
    /\ buf' = [buf EXCEPT ![vic[p]][Slot(hr[p] + k[p])] = None]   \* take: Swap(nil)
    /\ Goto(p, "st_store")
    /\ UNCHANGED <<steal, real, tail, glob, done, next, hs, hr, vic, n, dt, k, first, clobber>>

StStore(p) ==
    /\ pc[p] = "st_store"
    /\ Write(p, dt[p] + k[p] - 1, tmp[p])
    /\ k' = [k EXCEPT ![p] = @ + 1]
    /\ tmp' = [tmp EXCEPT ![p] = None]
    /\ Goto(p, IF k[p] + 1 < n[p] THEN "st_load" ELSE "st_pub")
    /\ UNCHANGED <<steal, real, tail, glob, done, next, hs, hr, vic, n, dt, first>>

\* Publish the copied tasks: dst tail += n-1.
StPub(p) ==
    /\ pc[p] = "st_pub"
    /\ tail' = [tail EXCEPT ![p] = (dt[p] + n[p] - 1) % M]
    /\ Goto(p, "st_rel_load")
    /\ UNCHANGED <<steal, real, buf, glob, done, next, locals, clobber>>

\* Phase 3: release.  Load src head, CAS (s, r) -> (r, r); retry on failure.
StRelLoad(p) ==
    /\ pc[p] = "st_rel_load"
    /\ hs' = [hs EXCEPT ![p] = steal[vic[p]]] /\ hr' = [hr EXCEPT ![p] = real[vic[p]]]
    /\ Goto(p, "st_rel_cas")
    /\ UNCHANGED <<steal, real, tail, buf, glob, done, next, vic, n, dt, k, tmp, first, clobber>>

StRelCas(p) ==
    /\ pc[p] = "st_rel_cas"
    /\ LET v == vic[p] IN
       IF steal[v] = hs[p] /\ real[v] = hr[p]
         THEN /\ steal' = [steal EXCEPT ![v] = hr[p]]
              /\ done' = IF first[p] = None THEN done ELSE [done EXCEPT ![first[p]] = @ + 1]
              /\ first' = [first EXCEPT ![p] = None]
              /\ n' = [n EXCEPT ![p] = 0]
              /\ k' = [k EXCEPT ![p] = 0]
              /\ Goto(p, "idle")
         ELSE Goto(p, "st_rel_load") /\ UNCHANGED <<steal, done, first, n, k>>
    /\ UNCHANGED <<real, tail, buf, glob, next, hs, hr, vic, dt, tmp, clobber>>

Next ==
    \/ \E p \in Pushers : PushBegin(p) \/ PushLoad(p) \/ PushOvf(p) \/ PushStore(p) \/ PushPub(p)
    \/ \E p \in R : PopBegin(p) \/ PopLoad(p) \/ PopCas(p)
    \/ \E p \in Thieves :
          \/ StealBegin(p) \/ StHead(p) \/ StTail(p) \/ StRoom(p) \/ StClaim(p)
          \/ StFirst(p) \/ StLoad(p) \/ StStore(p) \/ StPub(p)
          \/ StRelLoad(p) \/ StRelCas(p)

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Where a task is *)

\* The tasks in ring r's live range [real, tail), oldest first.
LiveSeq(r) == [j \in 1 .. Dist(real[r], tail[r]) |-> buf[r][Slot(real[r] + j - 1)]]

\* Thief q's copy in progress: the offsets it has written to its own ring
\* and not yet published.
Written(q) ==
    CASE pc[q] \in {"st_load", "st_store"} -> k[q] - 1
      [] pc[q] = "st_pub"                  -> n[q] - 1
      [] OTHER                             -> 0

\* What thief q's steal holds: the unread claimed source slots, the loaded
\* but not stored value, the written but not published destination slots,
\* and the first task (returned to the caller at the end).
UnreadSeq(q) == LET U == Unread(q) IN
    IF U = {} THEN <<>>
    ELSE [j \in 1 .. Cardinality(U) |-> buf[vic[q]][Slot(hr[q] + SetMin(U) + j - 1)]]
HeldSeq(q) ==
      UnreadSeq(q)
    \o (IF pc[q] = "st_store" THEN <<tmp[q]>> ELSE <<>>)
    \o [j \in 1 .. Written(q) |-> buf[q][Slot(dt[q] + j - 1)]]
    \o (IF first[q] # None THEN <<first[q]>> ELSE <<>>)

\* Tasks not pushed yet (or in the pusher's hand, between load and publish).
Unborn == {t \in Tasks : t >= next[Owner(t)]}

Places == LiveSeq(0) \o LiveSeq(1) \o LiveSeq(2) \o HeldSeq(1) \o HeldSeq(2)

RECURSIVE SumF(_, _)
SumF(f, S) == IF S = {} THEN 0 ELSE LET x == CHOOSE x \in S : TRUE IN f[x] + SumF(f, S \ {x})

\* Every task is in exactly one place: T places in all, and every task in one
\* of them (so no task twice, none lost).
ExactlyOnce ==
    /\ Cardinality(Unborn) + Len(Places) + SumF(glob, Tasks) + SumF(done, Tasks) = T
    /\ Unborn \cup {Places[i] : i \in 1 .. Len(Places)}
          \cup {t \in Tasks : glob[t] > 0} \cup {t \in Tasks : done[t] > 0} = Tasks

\* steal <= real <= tail in wrapping arithmetic, and tail - steal <= CAP.
HeadOrder == \A r \in R :
    /\ Dist(steal[r], real[r]) <= Dist(steal[r], tail[r])
    /\ Dist(steal[r], tail[r]) <= CAP

\* A thief's destination stays within bounds while it writes: the slots it has
\* written lie within dst steal + CAP.
DstBound == \A q \in Thieves :
    pc[q] \in {"st_load", "st_store", "st_pub"} =>
        Dist(steal[q], dt[q]) + Written(q) <= CAP

\* No slot is written while it holds a task somebody still needs.
NoClobber == ~clobber

TypeOK ==
    /\ \A r \in R : steal[r] \in 0 .. M - 1 /\ real[r] \in 0 .. M - 1 /\ tail[r] \in 0 .. M - 1
    /\ \A p \in Pushers : next[p] \in First(p) .. Last(p) + 1

\* State fingerprints keep only what can still matter: a process's locals
\* outside the steps that use them, and slot contents outside [steal, tail)
\* and outside a thief's written-not-published slots, are never read again
\* before being rewritten (every read is of a live or claimed slot), so
\* states that differ only there behave alike.  TLC's VIEW.
StealLocalsLive(p) == pc[p] \in {"st_room", "st_head", "st_tail", "st_claim", "st_first",
                                  "st_load", "st_store", "st_pub", "st_rel_load", "st_rel_cas"}
HeadLive(p) == pc[p] \in {"pop_cas", "push_ovf", "st_tail", "st_room", "st_claim",
                           "st_first", "st_load", "st_store", "st_pub", "st_rel_cas"}
MaskL(f, p) == IF StealLocalsLive(p) THEN f[p] ELSE 0
MaskH(f, p) == IF HeadLive(p) THEN f[p] ELSE 0
Rel(r) == {Slot(steal[r] + j) : j \in 0 .. Dist(steal[r], tail[r]) - 1}
          \cup (IF r \in Thieves THEN {Slot(dt[r] + j) : j \in 0 .. Written(r) - 1} ELSE {})
View == <<steal, real, tail, glob, done, next, pc, clobber, first,
          [r \in R |-> [i \in 0 .. CAP - 1 |-> IF i \in Rel(r) THEN buf[r][i] ELSE None]],
          [p \in R |-> <<MaskH(hs, p), MaskH(hr, p), MaskL(vic, p), MaskL(n, p),
                         MaskL(dt, p), MaskL(k, p), MaskL(tmp, p)>>]>>
=============================================================================
