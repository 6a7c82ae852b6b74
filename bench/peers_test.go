package bench

import "testing"

// workloads holds one peer's implementation of each scheduler workload. A nil entry means
// the peer has no sensible way to express the workload; its row is left out.
type workloads struct {
	spawnManyLocal      func(b *testing.B)
	spawnManyRemoteIdle func(b *testing.B)
	spawnManyRemoteBusy func(b *testing.B)
	yieldMany           func(b *testing.B)
	pingPong            func(b *testing.B)
	chainedSpawn        func(b *testing.B)
}

type peer struct {
	name string
	w    workloads
}

// peers lists every peer in the order the report shows them: the Go baseline first, then the
// pools, then the lock-based specification, then the production runtime with each parker.
func peers() []peer {
	ps := []peer{
		{"goroutines", goroutineWorkloads()},
		{"pond", poolWorkloads(newPondPool)},
		{"ants", poolWorkloads(newAntsPool)},
		{"workerpool", poolWorkloads(newWorkerpoolPool)},
	}
	ps = append(ps, specSchedPeers()...)
	ps = append(ps, implSchedPeers()...)
	return ps
}

func runPeers(b *testing.B, pick func(workloads) func(*testing.B)) {
	for _, p := range peers() {
		if f := pick(p.w); f != nil {
			b.Run("peer="+p.name, f)
		}
	}
}

func BenchmarkSpawnManyLocal(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.spawnManyLocal })
}

func BenchmarkSpawnManyRemoteIdle(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.spawnManyRemoteIdle })
}

func BenchmarkSpawnManyRemoteBusy(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.spawnManyRemoteBusy })
}

func BenchmarkYieldMany(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.yieldMany })
}

func BenchmarkPingPong(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.pingPong })
}

func BenchmarkChainedSpawn(b *testing.B) {
	runPeers(b, func(w workloads) func(*testing.B) { return w.chainedSpawn })
}
