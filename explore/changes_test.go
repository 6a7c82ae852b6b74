package explore

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// The changed lines a verdict names: the added lines of a diff, with
// their new line numbers, and a mutant's replacement found in its
// mutated file.
func TestChangedLines(t *testing.T) {
	diff := `diff --git a/impl/queue/ring.go b/impl/queue/ring.go
--- a/impl/queue/ring.go
+++ b/impl/queue/ring.go
@@ -312 +312 @@ func (r *Ring[T]) StealInto(dst *Ring[T], g *Global[T]) int {
-	dst.tail.StoreRelease(dt + n)
+	dst.tail.StoreRelaxed(dt + n)
@@ -400,0 +401,2 @@
+	x := 1
+
`
	got := parseDiff([]byte(diff))
	want := []changedLine{{"impl/queue/ring.go:312", "dst.tail.StoreRelaxed(dt + n)"}, {"impl/queue/ring.go:401", "x := 1"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("parseDiff: %+v, want %+v", got, want)
	}

	// A mutant applied to a copy of its file: the replacement's line.
	dir := t.TempDir()
	root := engine.ModuleDir()
	m, err := os.ReadFile(filepath.Join(root, "mutants", "ring-steal-while-stealing.mutant"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "impl", "queue", "ring.go"))
	if err != nil {
		t.Fatal(err)
	}
	orig := "\t\tif steal != real {\n\t\t\treturn 0, 0 // another thief's steal is in flight\n\t\t}"
	i := strings.Index(string(src), orig)
	if i < 0 {
		t.Fatal("the mutant's original text is not in impl/queue/ring.go")
	}
	line := strings.Count(string(src[:i]), "\n") + 1
	mutated := strings.Replace(string(src), orig, "\t\t_ = steal // no in-flight check", 1)
	for p, b := range map[string][]byte{"mutants/ring-steal-while-stealing.mutant": m, "impl/queue/ring.go": []byte(mutated)} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := mutantLines(dir, "ring-steal-while-stealing")
	if len(lines) != 1 || lines[0].At != "impl/queue/ring.go:"+strconv.Itoa(line) || lines[0].Text != "_ = steal // no in-flight check" {
		t.Fatalf("mutantLines: %+v, want impl/queue/ring.go:%d", lines, line)
	}
	tr := &engine.TraceData{}
	if v := changedVerdict(lines, tr); !strings.Contains(v, "changed line impl/queue/ring.go:") || !strings.Contains(v, "not run by this schedule") {
		t.Fatalf("changedVerdict: %q", v)
	}
}
