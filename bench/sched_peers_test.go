package bench

import (
	"os"
	"runtime"
	"testing"

	"github.com/wsched/wsched/bench/internal/gensched"
	implsched "github.com/wsched/wsched/impl/sched"
	specsched "github.com/wsched/wsched/spec/sched"
)

// implSchedPeerConfig is one configuration of the production runtime, as a peer.
type implSchedPeerConfig struct {
	name string
	cfg  implsched.Config
}

// implSchedPeerConfigs are the production runtime's peers: the default configuration (park
// timeout 10 ms, stealing on, the rescue of stranded tasks on) with numWorkers workers, once
// per parker, and once with the channel parker and the rescue off (LongPoll < 0), to show
// what the rescue costs.
func implSchedPeerConfigs() []implSchedPeerConfig {
	cfg := func(k implsched.ParkerKind) implsched.Config {
		c := implsched.DefaultConfig()
		c.Workers = numWorkers
		c.Parker = k
		return c
	}
	ps := []implSchedPeerConfig{{"impl-channel", cfg(implsched.ParkerChannel)}}
	if runtime.GOOS == "linux" { // the futex parker exists only there
		ps = append(ps, implSchedPeerConfig{"impl-futex", cfg(implsched.ParkerFutex)})
	}
	norescue := cfg(implsched.ParkerChannel)
	norescue.LongPoll = -1
	return append(ps, implSchedPeerConfig{"impl-norescue", norescue})
}

// implSchedPeers is the production runtime in each configuration of implSchedPeerConfigs.
func implSchedPeers() []peer {
	var ps []peer
	for _, c := range implSchedPeerConfigs() {
		ps = append(ps, peer{c.name, implSchedWorkloads(c.cfg)})
	}
	return ps
}

// specSchedPeerConfig is the lock-based reference runtime's configuration; it has no parker
// to choose.
func specSchedPeerConfig() specsched.Config {
	c := specsched.DefaultConfig()
	c.Workers = numWorkers
	return c
}

// specSchedPeers is the lock-based reference runtime.
func specSchedPeers() []peer {
	return []peer{{"spec", specSchedWorkloads(specSchedPeerConfig())}}
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
