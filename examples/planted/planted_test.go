//go:build !explore

package planted

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// goTest runs go test with args in the module's root and returns its
// output and whether it passed.
func goTest(t *testing.T, env []string, args ...string) (string, bool) {
	t.Helper()
	return run(t, env, "go", append([]string{"test", "-count=1", "-v"}, args...)...)
}

func run(t *testing.T, env []string, name string, args ...string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = ".." // the module's root, where a printed replay runs
	cmd.Env = append(cleanEnv(), env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out\n%s", name, strings.Join(args, " "), out)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return string(out), err == nil
}

// cleanEnv is the environment without the explorer's settings: a
// replay or a weak mode set for this test must not leak into the runs.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WSCHED_") {
			env = append(env, kv)
		}
	}
	return env
}

// failures are the records of the failed explorations in out.
func failures(t *testing.T, out string) []explore.Record {
	t.Helper()
	var recs []explore.Record
	for _, line := range strings.Split(out, "\n") {
		rec, ok, err := explore.ParseRecord(line)
		if err != nil {
			t.Fatal(err)
		}
		if ok && rec.Failure != nil {
			recs = append(recs, rec)
		}
	}
	return recs
}

func TestPlantedBugsOnlyTheWeakModeFinds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test six times on the module (-short skips it)")
	}
	for _, pkg := range []string{"treiber", "mpmc", "seqlock"} {
		t.Run(pkg, func(t *testing.T) {
			if out, ok := goTest(t, nil, "-tags", "explore,buggy", "./"+pkg); !ok {
				t.Fatalf("the buggy %s fails an interleaving: its bug is not one of ordering only\n%s", pkg, out)
			}
			out, ok := goTest(t, nil, "-tags", "explore,weak,buggy", "./"+pkg)
			recs := failures(t, out)
			if ok || len(recs) == 0 {
				t.Fatalf("the weak mode does not find the planted bug of %s (passed: %v, failed explorations: %d)\n%s", pkg, ok, len(recs), out)
			}
			for _, rec := range recs {
				f := rec.Failure
				if rec.Tags != "explore,weak,buggy" || rec.Package != "./"+pkg {
					t.Errorf("%s: record says tags %q, package %q; want explore,weak,buggy and ./%s", rec.Scenario, rec.Tags, rec.Package, pkg)
				}
				t.Logf("%s: %s at schedule %d, %d preemptions: %s\nreplay: %s", rec.Scenario, f.Kind, f.Schedule, f.Preemptions, f.Message, f.Replay)
				again, ok := run(t, nil, "sh", "-c", f.Replay)
				replayed := failures(t, again)
				if ok || len(replayed) != 1 {
					t.Errorf("%s: the printed replay did not fail once (passed: %v, failures: %d)\n%s", rec.Scenario, ok, len(replayed), again)
					continue
				}
				r := replayed[0]
				if r.Mode != "replay" || r.Scenario != rec.Scenario || r.Failure.Kind != f.Kind || r.Failure.Message != f.Message {
					t.Errorf("%s: the replay failed as %s %q (%s, mode %s), not as %s %q", rec.Scenario, r.Failure.Kind, r.Failure.Message, r.Scenario, r.Mode, f.Kind, f.Message)
				}
			}
		})
	}
}
