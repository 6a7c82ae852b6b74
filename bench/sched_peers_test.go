package bench

import (
	"os"
	"runtime"
	"testing"

	"github.com/wsched/wsched/bench/internal/gensched"
	implsched "github.com/wsched/wsched/impl/sched"
	specsched "github.com/wsched/wsched/spec/sched"
)

// implSchedPeers is the production runtime, once per parker. Both use the default
// configuration (park timeout 10 ms, stealing on) with numWorkers workers.
func implSchedPeers() []peer {
	cfg := func(k implsched.ParkerKind) implsched.Config {
		c := implsched.DefaultConfig()
		c.Workers = numWorkers
		c.Parker = k
		return c
	}
	ps := []peer{{"impl-channel", implSchedWorkloads(cfg(implsched.ParkerChannel))}}
	if runtime.GOOS == "linux" { // the futex parker exists only there
		ps = append(ps, peer{"impl-futex", implSchedWorkloads(cfg(implsched.ParkerFutex))})
	}
	return ps
}

// specSchedPeers is the lock-based reference runtime, which has no parker to choose.
func specSchedPeers() []peer {
	c := specsched.DefaultConfig()
	c.Workers = numWorkers
	return []peer{{"spec", specSchedWorkloads(c)}}
}

// TestSpecSchedGenerated fails when sched_spec_test.go is not what `go generate` makes of
// sched_impl_test.go, so the two runtimes are always measured by the same code.
func TestSpecSchedGenerated(t *testing.T) {
	src, err := os.ReadFile(gensched.Template)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gensched.Transform(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(gensched.Output)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is stale: run `go generate` in bench/", gensched.Output)
	}
}
