package main

import (
	"strings"
	"testing"
	"time"
)

// A trimmed `go tool pprof -traces` output: a header, then samples between separators,
// the leaf first.
const tracesSample = `File: bench.test
Type: cpu
Duration: 3.40s, Total samples = 4.65s (136.70%)
-----------+-------------------------------------------------------
      30ms   runtime.nextFreeFast
             runtime.mallocgc
             runtime.newobject
             github.com/wsched/wsched/impl/sched.(*Runtime).newTask
             github.com/wsched/wsched/impl/sched.(*worker).spawnLocal
             github.com/wsched/wsched/bench.(*implPing).Poll
-----------+-------------------------------------------------------
      20ms   sync/atomic.SwapPointer
             github.com/wsched/wsched/impl/queue.(*Ring[go.shape.struct { x int }]).Pop
             github.com/wsched/wsched/impl/sched.(*worker).popLocal
-----------+-------------------------------------------------------
      10ms   runtime.chanrecv
             github.com/wsched/wsched/impl/park.(*Chan).Park
             github.com/wsched/wsched/impl/sched.(*worker).park
-----------+-------------------------------------------------------
      1.5s   github.com/wsched/wsched/impl/queue.(*Global[go.shape.struct { x int }]).PushBatch
             github.com/wsched/wsched/impl/queue.(*Ring[go.shape.struct { x int }]).overflowHalf
-----------+-------------------------------------------------------
      10ms   sync/atomic.(*Uint32).CompareAndSwap
             github.com/wsched/wsched/bench.(*implOneshot).ready
-----------+-------------------------------------------------------
      10ms   gogo
-----------+-------------------------------------------------------
`

func TestBreakdownAttributesEachSampleOnce(t *testing.T) {
	b := &breakdown{Tasks: 1000, ByCategory: map[string]time.Duration{}}
	if err := b.addTraces(strings.NewReader(tracesSample)); err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{
		categories[0].name: 30 * time.Millisecond,   // malloc under a task body: allocation
		categories[1].name: 10 * time.Millisecond,   // channel receive inside the parker: parking
		categories[2].name: 1500 * time.Millisecond, // overflow's batch push: the global queue
		categories[3].name: 20 * time.Millisecond,   // an atomic under Ring.Pop: the ring
		categories[6].name: 10 * time.Millisecond,   // an atomic in the workload's own code
		otherCategory:      10 * time.Millisecond,   // nothing matches
	}
	var total time.Duration
	for c, d := range want {
		if got := b.ByCategory[c]; got != d {
			t.Errorf("%s: %v, want %v", c, got, d)
		}
		total += d
	}
	if b.CPU != total || len(b.ByCategory) != len(want) {
		t.Errorf("CPU %v over %d categories, want %v over %d: %v", b.CPU, len(b.ByCategory), total, len(want), b.ByCategory)
	}
	if got, want := b.cpuPerTask(categories[0].name), 30e6/1000.0; got != want {
		t.Errorf("cpuPerTask = %v, want %v", got, want)
	}
	md := breakdownMarkdown([]*breakdown{b}, "2s")
	for _, s := range []string{"## Where the time goes", "| allocation and garbage collection | 30000 (2%) |", "**CPU ns per task, total**"} {
		if !strings.Contains(md, s) {
			t.Errorf("breakdown section lacks %q:\n%s", s, md)
		}
	}
}

func TestBenchLineReadsTasks(t *testing.T) {
	out := []byte("goos: linux\nBenchmarkPingPong/peer=impl-channel-2   \t    8613\t    388247 ns/op\t       194.1 ns/task\t      2000 tasks/op\t  160052 B/op\t    4001 allocs/op\nPASS\n")
	b, err := benchLine(out)
	if err != nil {
		t.Fatal(err)
	}
	if b.Tasks != 8613*2000 || b.WallPerOp != 194.1 {
		t.Fatalf("tasks %v, ns/task %v", b.Tasks, b.WallPerOp)
	}
	if _, err := benchLine([]byte("PASS\n")); err == nil {
		t.Fatal("no error for output without a result")
	}
}
