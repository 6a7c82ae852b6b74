package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// burnEnv makes TestCPUCountsTheCommandsChildren's binary, run again, burn
// CPU and say how much.
const burnEnv = "WSCHED_VERIFY_BURN"

var burnedLine = regexp.MustCompile(`burned=(\d+)`)

// A command's CPU includes what the processes it started and waited for
// burned (as go test's compiles and test binaries): here the shell of each
// command starts this test's binary in the background and waits for it,
// and the binary burns CPU until its own count says 300 ms. The layer's
// CPU is at least what the binaries burned, whether its commands run in
// turn, on two lanes at once (runLanes) or as processes sharing the
// explorer's claims (runShared).
func TestCPUCountsTheCommandsChildren(t *testing.T) {
	if os.Getenv(burnEnv) != "" {
		var ru syscall.Rusage
		for {
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
				t.Fatal(err)
			}
			if d := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()); d >= 300*time.Millisecond {
				fmt.Printf("burned=%d\n", d)
				return
			}
			for i := 0; i < 1e6; i++ { // burn
			}
		}
	}
	burner := []string{"sh", "-c", `"$0" -test.run='^TestCPUCountsTheCommandsChildren$' & wait`, os.Args[0]}
	// burned adds up what the binaries said they burned, from the logs.
	burned := func(t *testing.T, logs []string) time.Duration {
		var sum time.Duration
		for _, p := range logs {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m := burnedLine.FindSubmatch(b)
			if m == nil {
				t.Fatalf("%s does not say what the binary burned:\n%s", p, b)
			}
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			sum += time.Duration(n)
		}
		return sum
	}
	t.Setenv(burnEnv, "1")
	for _, c := range []struct {
		name string
		l    layer
		long bool
	}{
		{"in turn", layer{name: "unit", limit: time.Minute, cmds: [][]string{burner, burner}}, false},
		{"on two lanes", layer{name: "unit", limit: time.Minute, longLanes: 2, long: [][]string{burner, burner}}, true},
		{"as shared processes", layer{name: "explore", limit: time.Minute, processes: 2, cmds: [][]string{burner}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(c.l, c.long, t.TempDir())
			if r.status != statusPass {
				t.Fatalf("status %s: %s", r.status, r.why)
			}
			want := burned(t, r.logs)
			if want < 600*time.Millisecond {
				t.Fatalf("the binaries burned %v in all, want 2 x 300ms", want)
			}
			got, ok := r.cpu.known()
			if !ok || r.cpu.counted != 2 {
				t.Fatalf("cpu %+v: want the 2 commands counted", r.cpu)
			}
			if got < want {
				t.Errorf("the layer's cpu is %v, less than the %v its commands' children burned", got, want)
			}
		})
	}
}
