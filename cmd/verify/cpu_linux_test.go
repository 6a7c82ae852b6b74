package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/mutant"
)

// burnEnv makes TestCPUCountsTheCommandsChildren's binary, run again, burn
// CPU and say how much.
const burnEnv = "WSCHED_VERIFY_BURN"

var burnedLine = regexp.MustCompile(`burned=(\d+)`)

// burnFlag runs this test binary as a burner (with burnEnv set).
const burnFlag = "-test.run=^TestCPUCountsTheCommandsChildren$"

// burner is a command whose shell starts this test binary, burning, in
// the background and waits for it.
var burner = []string{"sh", "-c", `"$0" '` + burnFlag + `' & wait`, os.Args[0]}

// coversTwoBurners checks that cpu, whose, counts two commands and is at
// least what the two burners whose logs are logs burned.
func coversTwoBurners(t *testing.T, whose string, cpu cpuTime, logs []string) {
	t.Helper()
	want := burnedIn(t, logs)
	if want < 600*time.Millisecond {
		t.Fatalf("the burners burned %v in all, want 2 x 300ms", want)
	}
	got, ok := cpu.known()
	if !ok || cpu.counted != 2 {
		t.Fatalf("cpu %+v: want the 2 commands counted", cpu)
	}
	if got < want {
		t.Errorf("%s cpu is %v, less than the %v its commands' children burned", whose, got, want)
	}
}

// burnedIn adds up what the burners said they burned, from the logs.
func burnedIn(t *testing.T, logs []string) time.Duration {
	t.Helper()
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
			coversTwoBurners(t, "the layer's", r.cpu, r.logs)
		})
	}
}

// A mutant's CPU, in its row of the kill matrix, is its cells' commands'
// and what they started: go test's compiles and test binaries, and what
// those ran. The mutant here is of a module made for the test: its one
// test runs this test binary as a burner and fails on the mutated
// constant. Both of its caught-by entries run (-every), each a go test
// command of its own, and the row's CPU is at least what the two burners
// burned.
func TestMutantCPUCountsTheCellsChildren(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":                 "module example.com/burn\n\ngo 1.22\n",
		"impl/burn/burn.go":      "package burn\n\nconst Right = true\n",
		"impl/burn/burn_test.go": fmt.Sprintf(burnTest, burnerEnv, burnFlag),
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(burnEnv, "1")
	t.Setenv(burnerEnv, os.Args[0])
	m := &mutant.Mutant{ID: "burn", File: "impl/burn/burn.go", Scope: "impl",
		Original: "const Right = true", Replacement: "const Right = false",
		CaughtBy: []mutant.Catch{{Layer: "unit", Pkg: "./impl/burn", Run: "^TestBurn$"}, {Layer: "chaos", Pkg: "./impl/burn", Run: "^TestBurn$"}}}
	row := &mutantRow{m: m, cells: map[string]cellStatus{}, failed: map[string][]string{}}
	logDir := t.TempDir()
	var out strings.Builder
	if err := runOneMutant(&out, root, m, mutantOptions{fast: true, every: true, limit: 3 * time.Minute}, nil, logDir, row); err != nil {
		t.Fatal(err)
	}
	t.Logf("cells:\n%s", out.String())
	if row.cells["unit"] != cellKilled || row.cells["chaos"] != cellKilled {
		t.Fatalf("cells %q, want the mutant killed in unit and chaos", row.cells)
	}
	logs, err := filepath.Glob(filepath.Join(logDir, "burn-*.log"))
	if err != nil || len(logs) != 2 {
		t.Fatalf("cell logs %v (%v), want 2", logs, err)
	}
	coversTwoBurners(t, "the mutant's", row.cpu, logs)
}

// burnerEnv names the burner for burnTest.
const burnerEnv = "WSCHED_VERIFY_BURNER"

// burnTest is the test of TestMutantCPUCountsTheCellsChildren's module:
// it runs the burner (%s names it; %s is burnFlag) and fails on the mutant.
const burnTest = `package burn

import (
	"os"
	"os/exec"
	"testing"
)

func TestBurn(t *testing.T) {
	out, err := exec.Command(os.Getenv(%q), %q).CombinedOutput()
	t.Logf("%%s", out)
	if err != nil {
		t.Fatal(err)
	}
	if !Right {
		t.Fatal("mutated")
	}
}
`
