package explore

import (
	"os"
	"testing"
)

// claimTB records how claim ended a test: skipped, failed, or neither.
type claimTB struct {
	testing.TB
	ended string
}

type claimEnd struct{}

func (c *claimTB) Helper()                      {}
func (c *claimTB) Skipf(string, ...any)         { c.ended = "skip"; panic(claimEnd{}) }
func (c *claimTB) Fatalf(string, ...any)        { c.ended = "fail"; panic(claimEnd{}) }
func (c *claimTB) Logf(format string, a ...any) {}

// claimed runs claim as a test would and says how it ended: "run" when the
// test goes on to run the scenario.
func claimed(t *testing.T, name string, opt Options, compare bool) (how string) {
	c := &claimTB{TB: t}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(claimEnd); !ok {
				panic(p)
			}
			how = c.ended
		}
	}()
	claim(c, name, opt, compare)
	return "run"
}

// Two processes sharing a claims directory: the first to reach a Check
// runs it, the other skips; a name reached twice in one process fails.
func TestClaimsSplitScenariosBetweenProcesses(t *testing.T) {
	dir := t.TempDir()
	otherProcess := func() { claims.Lock(); claims.seen = nil; claims.Unlock() }
	defer otherProcess()
	otherProcess()
	for _, c := range []struct {
		what    string
		process bool // start as another process
		name    string
		opt     Options
		compare bool
		want    string
	}{
		{"the first claim", false, "toy/a", Options{Claims: dir}, false, "run"},
		{"another scenario", false, "toy/b", Options{Claims: dir}, false, "run"},
		{"toy/a in a second process", true, "toy/a", Options{Claims: dir}, false, "skip"},
		{"toy/b in the second process", false, "toy/b", Options{Claims: dir}, false, "skip"},
		{"toy/a weak: another check", false, "toy/a", Options{Weak: true, Claims: dir}, false, "run"},
		{"toy/a compared: another check", false, "toy/a", Options{Claims: dir}, true, "run"},
		{"toy/a again in the second process", false, "toy/a", Options{Claims: dir}, false, "fail"},
	} {
		if c.process {
			otherProcess()
		}
		if got := claimed(t, c.name, c.opt, c.compare); got != c.want {
			t.Errorf("%s: %s, want %s", c.what, got, c.want)
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 4 {
		t.Errorf("claims directory holds %d files (%v), want 4", len(entries), err)
	}
	otherProcess()
	if got := claimed(t, "toy/a", Options{}, false); got != "run" {
		t.Errorf("without a claims directory: %s, want run", got)
	}
}
