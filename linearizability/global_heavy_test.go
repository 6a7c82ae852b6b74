package linearizability

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/model"
)

// heavyGlobalHistory is a history of impl/queue's Global recorded by
// globalRound under -race and chaos yield points on a loaded machine. It is
// linearizable, and it is the kind that once made porcupine give no
// verdict: 262 operations of three clients, with pushes overlapping in
// real time while the queue held up to 107 tasks, so that the orders
// porcupine has to try differ in the middle of the queue. With the model's
// state hashed by its ends only, porcupine found no verdict in a minute;
// hashed whole, it checks in under a second (model.QueueState.Hash).
const heavyGlobalHistory = "testdata/global-heavy.txt"

// readGlobalHistory parses a history file: one operation a line,
//
//	client call return Push task
//	client call return PushBatch task...
//	client call return PopBatch max -> task...
//	client call return Len -> n
//
// with call and return stamps of one logical clock.
func readGlobalHistory(path string) ([]porcupine.Operation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []porcupine.Operation
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		op, err := parseGlobalOp(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		ops = append(ops, op)
	}
	return ops, sc.Err()
}

func parseGlobalOp(text string) (porcupine.Operation, error) {
	f := strings.Fields(text)
	args, outs, arrow := f, []string(nil), slices.Index(f, "->")
	if arrow >= 0 {
		args, outs = f[:arrow], f[arrow+1:]
	}
	if len(args) < 4 {
		return porcupine.Operation{}, fmt.Errorf("want client, call, return and operation: %q", text)
	}
	var nums []int
	for _, s := range append(append(slices.Clone(args[:3]), args[4:]...), outs...) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return porcupine.Operation{}, fmt.Errorf("%q: %v", text, err)
		}
		nums = append(nums, n)
	}
	op := porcupine.Operation{ClientId: nums[0], Call: int64(nums[1]), Return: int64(nums[2])}
	rest := nums[3:]
	nargs := len(args) - 4
	in, out := model.QueueInput{}, model.QueueOutput{}
	switch name := args[3]; {
	case name == "Push" && nargs == 1 && arrow < 0:
		in = model.QueueInput{Kind: model.OpGlobalPush, Task: rest[0]}
	case name == "PushBatch" && arrow < 0:
		in = model.QueueInput{Kind: model.OpGlobalPushBatch, Tasks: rest}
	case name == "PopBatch" && nargs == 1 && arrow >= 0:
		in = model.QueueInput{Kind: model.OpGlobalPopBatch, Max: rest[0]}
		out.Tasks = rest[1:]
	case name == "Len" && nargs == 0 && len(outs) == 1:
		in = model.QueueInput{Kind: model.OpGlobalLen}
		out.N = rest[0]
	default:
		return porcupine.Operation{}, fmt.Errorf("not an operation on the global queue: %q", text)
	}
	op.Input, op.Output = in, out
	return op, nil
}

// TestGlobalHeavyHistory checks the recorded heavy history: porcupine must
// find it linearizable, with the same timeout and retry as every round.
func TestGlobalHeavyHistory(t *testing.T) {
	ops, err := readGlobalHistory(heavyGlobalHistory)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 262 {
		t.Fatalf("%s: %d operations, want 262", heavyGlobalHistory, len(ops))
	}
	if err := Check(QueueModel(0), "global-heavy", ops, checkTimeout); err != nil {
		t.Fatal(err)
	}
}

// TestGlobalHeavyHistoryAltered checks that the same history with two tasks
// of one PopBatch swapped is found not linearizable: the file is read as
// the history it is, and porcupine's answer on it is a real one.
func TestGlobalHeavyHistoryAltered(t *testing.T) {
	ops, err := readGlobalHistory(heavyGlobalHistory)
	if err != nil {
		t.Fatal(err)
	}
	for i, op := range ops {
		if tasks := op.Output.(model.QueueOutput).Tasks; len(tasks) >= 2 {
			swapped := slices.Clone(tasks)
			swapped[0], swapped[1] = swapped[1], swapped[0]
			ops[i].Output = model.QueueOutput{Tasks: swapped}
			break
		}
	}
	res, _ := porcupine.CheckOperationsVerbose(QueueModel(0), ops, checkTimeout)
	if res != porcupine.Illegal {
		t.Fatalf("the altered history: porcupine says %s, want Illegal", res)
	}
}

// BenchmarkCheckGlobalHeavyHistory times porcupine on the heavy history.
func BenchmarkCheckGlobalHeavyHistory(b *testing.B) {
	ops, err := readGlobalHistory(heavyGlobalHistory)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res := porcupine.CheckOperations(QueueModel(0), ops); !res {
			b.Fatal("not linearizable")
		}
	}
}

// TestCheckSaysNoVerdict: a search cut by its timeout is reported as no
// verdict, never as a pass, and is not described as the model refusing
// the operations where it stopped.
func TestCheckSaysNoVerdict(t *testing.T) {
	ops, err := readGlobalHistory(heavyGlobalHistory)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir()) // where Check writes its HTML view
	err = Check(QueueModel(0), "global-heavy-cut", ops, time.Nanosecond)
	if err == nil {
		t.Fatal("a search of 262 operations given a nanosecond passed")
	}
	if msg := err.Error(); !strings.Contains(msg, "porcupine says Unknown") || !strings.Contains(msg, "no verdict") || strings.Contains(msg, "none of which the model accepts") {
		t.Fatalf("the message does not say the search gave no verdict:\n%s", msg)
	}
}
