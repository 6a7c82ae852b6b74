// Package trace validates logs of impl/ against the TLA+ specs of tla/
// (TLA+ trace validation: Cirstea, Kuppe, Merz, Loillier, "Validating
// Traces of Distributed Programs Against TLA+ Specifications", 2024).
//
// Built with -tags tlatrace, impl/ records the specs' actions as it
// performs them (internal/tlatrace). This package turns a log into a TLA+
// sequence of records, writes a batch of logs as the constant of a trace
// module (tla/Trace*.tla) and runs TLC once per batch: TLC says whether
// each log is a behaviour of the spec, and where it is not, which record
// the spec does not allow and the state there.
//
// Its tests produce the logs: every schedule of the explorer's ring
// scenarios, of two remote-spawn runs of impl/sched, of three runs of
// the monitor going idle and of the stranding scenarios (-tags
// explore,tlatrace), and stress runs of the
// ring and of impl/sched's idle protocol and monitor with real parallelism
// (-tags tlatrace, and with chaos); impl/sched's own test traces the
// explorer's monitor pairs (TestTraceMonitorPairs). The ring's logs are
// checked against ThreePhaseSteal (TraceThreePhaseSteal, every variable
// observed), the idle protocol's against IdleProtocol (TraceIdleProtocol,
// the queues and tokens left free), the monitor's against MonitorIdle
// (TraceMonitorIdle, the tokens left free), the stranding scenarios'
// against Stranding at the code's grain (TraceStranding, parks left
// free). Without the tag the package is
// this comment; docs/tla.md ("Trace validation") has the commands and the
// numbers.
package trace
