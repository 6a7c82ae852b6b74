//go:build explore

package scenarios

import (
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// The stranding guarantee in both settings of the rescue. With it on (the
// default) stranding/lifo-slot, stranding/lifo-slot-after-idle and
// stranding/extra-worker pass (stranding_test.go); with it off (LongPoll < 0) the same bodies must
// strand as Config.LongPoll documents ("a poll that blocks can hold up
// other queued tasks"): the explorer finds a schedule where every
// goroutine waits. If one of them stopped stranding, the rescue would no
// longer be what makes its twin pass, and the benchmarks' rescue on/off
// rows (docs/performance.md) would no longer price it.
func TestExploreStrandingWithRescueOff(t *testing.T) {
	for _, sc := range []struct {
		name string
		body func(sched.Config)
		cfg  sched.Config
	}{
		{"stranding/lifo-slot", func(c sched.Config) { lifoBehindBlockedPoll(c, false) }, sched.Config{Workers: 2, LongPoll: -1}},
		{"stranding/lifo-slot-after-idle", func(c sched.Config) { lifoBehindBlockedPoll(c, true) }, sched.Config{Workers: 2, LongPoll: -1}},
		{"stranding/extra-worker", extraWorkerForStuckWorker, sched.Config{Workers: 1, LongPoll: -1}},
	} {
		res := explore.Explore(explore.Options{Preemptions: 1, MaxSchedules: 200_000}, func() { sc.body(sc.cfg) })
		if res.Failure == nil {
			t.Errorf("%s with LongPoll < 0: no stranding in %d schedules (exhaustive %v); the rescue should be what prevents it", sc.name, res.Schedules, res.Exhaustive)
			continue
		}
		if !strings.HasPrefix(res.Failure.Message, "deadlock") {
			t.Errorf("%s with LongPoll < 0 failed, but not by stranding (a deadlock):\n%s", sc.name, res.Failure.Message)
			continue
		}
		t.Logf("%s with LongPoll < 0 strands after %d schedule(s): %s", sc.name, res.Schedules, firstLine(res.Failure.Message))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
