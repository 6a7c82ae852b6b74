---- MODULE MonitorIdle_TTrace_1795572404 ----
EXTENDS Sequences, TLCExt, MonitorIdle, Toolbox, Naturals, TLC

_expression ==
    LET MonitorIdle_TEExpression == INSTANCE MonitorIdle_TEExpression
    IN MonitorIdle_TEExpression!expression
----

_trace ==
    LET MonitorIdle_TETrace == INSTANCE MonitorIdle_TETrace
    IN MonitorIdle_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        mpc = ("sleep")
        /\
        idle = (TRUE)
        /\
        wtoken = (<<TRUE, FALSE>>)
        /\
        mtoken = (FALSE)
        /\
        wpc = (<<"recheck", "recheck">>)
        /\
        bit = (<<FALSE, TRUE>>)
        /\
        sawIdle = (<<FALSE, FALSE>>)
    )
----

_init ==
    /\ sawIdle = _TETrace[1].sawIdle
    /\ mpc = _TETrace[1].mpc
    /\ mtoken = _TETrace[1].mtoken
    /\ wpc = _TETrace[1].wpc
    /\ idle = _TETrace[1].idle
    /\ wtoken = _TETrace[1].wtoken
    /\ bit = _TETrace[1].bit
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ sawIdle  = _TETrace[i].sawIdle
        /\ sawIdle' = _TETrace[j].sawIdle
        /\ mpc  = _TETrace[i].mpc
        /\ mpc' = _TETrace[j].mpc
        /\ mtoken  = _TETrace[i].mtoken
        /\ mtoken' = _TETrace[j].mtoken
        /\ wpc  = _TETrace[i].wpc
        /\ wpc' = _TETrace[j].wpc
        /\ idle  = _TETrace[i].idle
        /\ idle' = _TETrace[j].idle
        /\ wtoken  = _TETrace[i].wtoken
        /\ wtoken' = _TETrace[j].wtoken
        /\ bit  = _TETrace[i].bit
        /\ bit' = _TETrace[j].bit

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("MonitorIdle_TTrace_1795572404.json", _TETrace)

=============================================================================

 Note that you can extract this module `MonitorIdle_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `MonitorIdle_TEExpression.tla` file takes precedence 
  over the module `MonitorIdle_TEExpression` below).

---- MODULE MonitorIdle_TEExpression ----
EXTENDS Sequences, TLCExt, MonitorIdle, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `MonitorIdle` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        sawIdle |-> sawIdle
        ,mpc |-> mpc
        ,mtoken |-> mtoken
        ,wpc |-> wpc
        ,idle |-> idle
        ,wtoken |-> wtoken
        ,bit |-> bit
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_sawIdleUnchanged |-> sawIdle = sawIdle'
        
        \* Format the `sawIdle` variable as Json value.
        \* ,_sawIdleJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(sawIdle)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_sawIdleModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].sawIdle # _TETrace[s-1].sawIdle
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE MonitorIdle_TETrace ----
\*EXTENDS IOUtils, MonitorIdle, TLC
\*
\*trace == IODeserialize("MonitorIdle_TTrace_1795572404.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE MonitorIdle_TETrace ----
EXTENDS MonitorIdle, TLC

trace == 
    <<
    ([mpc |-> "look",idle |-> FALSE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"running", "running">>,bit |-> <<FALSE, FALSE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "look",idle |-> FALSE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "running">>,bit |-> <<TRUE, FALSE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "look",idle |-> FALSE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "recheck">>,bit |-> <<TRUE, TRUE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "storeIdle",idle |-> FALSE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "recheck">>,bit |-> <<TRUE, TRUE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "recheck",idle |-> TRUE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "recheck">>,bit |-> <<TRUE, TRUE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "sleep",idle |-> TRUE,wtoken |-> <<FALSE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "recheck">>,bit |-> <<TRUE, TRUE>>,sawIdle |-> <<FALSE, FALSE>>]),
    ([mpc |-> "sleep",idle |-> TRUE,wtoken |-> <<TRUE, FALSE>>,mtoken |-> FALSE,wpc |-> <<"recheck", "recheck">>,bit |-> <<FALSE, TRUE>>,sawIdle |-> <<FALSE, FALSE>>])
    >>
----


=============================================================================

---- CONFIG MonitorIdle_TTrace_1795572404 ----
CONSTANTS
    N = 2
    Order = "load-then-clear"
    MonitorRecheck = TRUE

INVARIANT
    _inv

CHECK_DEADLOCK
    \* CHECK_DEADLOCK off because of PROPERTY or INVARIANT above.
    FALSE

INIT
    _init

NEXT
    _next

CONSTANT
    _TETrace <- _trace

ALIAS
    _expression
=============================================================================
\* Generated on Wed Nov 25 02:06:45 UTC 2026