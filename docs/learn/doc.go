// Package learn holds no code. Its directory is the learning path of
// docs/learn (README.md), and its test keeps the lessons true: it runs
// every command the lessons give, compares what each prints with the
// output the lesson shows, and checks that each exercise's mutant is
// killed at the schedule and with the preemptions the lesson's answer
// states.
//
//	go test ./docs/learn                      # the quick part: paths, names, litmus outputs (seconds)
//	WSCHED_LEARN=all go test ./docs/learn     # and every mutant kill (a minute; cmd/verify -only learn)
//	go test ./docs/learn -update              # rewrite the output blocks from what the commands print
package learn
