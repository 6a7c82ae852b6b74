//go:build explore && weak

package scenarios

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/scenarioset"
)

// TestMain, in the weak build: with no -run, what the weak layer runs of
// this package, as it runs it: its scenarios (scenarioset.WeakScenarios)
// with the reduced search (WSCHED_EXPLORE_REDUCE=1, unless set; the
// runtime scenarios keep the plain search with the state cache they
// choose, weakSearch), not all of them. The whole-runtime scenarios of
// this package take tens of minutes to hours each in the weak-memory
// mode, so a go test -tags
// explore,weak ./explore/... that ran them all could not end within go
// test's ten minutes (the selection: about 85 s of CPU reduced, 133 s
// with the plain search). -run names any of them, and WSCHED_EXPLORE_WEAK=1
// with -tags explore runs them in the weak mode too.
func TestMain(m *testing.M) {
	flag.Parse()
	if run := flag.Lookup("test.run"); run != nil && run.Value.String() == "" {
		if err := run.Value.Set(scenarioset.WeakScenarios); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if _, set := os.LookupEnv(explore.ReduceEnv); !set {
			os.Setenv(explore.ReduceEnv, "1")
		}
		fmt.Printf("weak build with no -run: the weak layer's scenarios only, as it runs them (%s=%s, -run %s); -run selects others\n", explore.ReduceEnv, os.Getenv(explore.ReduceEnv), scenarioset.WeakScenarios)
	}
	os.Exit(m.Run())
}
