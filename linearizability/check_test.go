package linearizability

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/model"
)

// TestCheckReportsIllegal feeds Check a history no order can explain (a
// steal returns a task that is not the oldest) and checks the failure it
// reports: the verdict, an HTML file that exists, and the stuck call.
func TestCheckReportsIllegal(t *testing.T) {
	op := func(client int, in model.QueueInput, out model.QueueOutput, call, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Output: out, Call: call, Return: ret}
	}
	ops := []porcupine.Operation{
		op(0, model.QueueInput{Kind: model.OpPush, Ring: 0, Task: 1}, model.QueueOutput{}, 1, 2),
		op(0, model.QueueInput{Kind: model.OpPush, Ring: 0, Task: 2}, model.QueueOutput{}, 3, 4),
		op(1, model.QueueInput{Kind: model.OpSteal, Ring: 0, Dst: 1}, model.QueueOutput{Task: 2, N: 1}, 5, 6),
	}
	err := Check(QueueModel(2), "selftest", ops, time.Second)
	if err == nil {
		t.Fatal("Check accepted a steal of the newest task")
	}
	msg := err.Error()
	path := regexp.MustCompile(`\S+\.html`).FindString(msg)
	if path == "" {
		t.Fatalf("no HTML path in %q", msg)
	}
	defer os.Remove(path)
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("HTML view %s: %v", path, err)
	}
	for _, want := range []string{"Illegal", "ring0.StealInto(ring1) -> (2, 1)", "ring0[1 2]"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
}
