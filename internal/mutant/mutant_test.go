package mutant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseApplyAndStaleness(t *testing.T) {
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/m\n")
	write(t, root, "impl/a/a.go", "package a\n\nfunc F() int {\n\treturn 1\n}\n")
	cat := filepath.Join(root, "mutants")
	p := write(t, cat, "one.mutant", `# a comment
file: impl/a/a.go
what: F returns 2
caught-by: unit:./impl/a:^TestF$ stress:./stress:^TestG
--- original
	return 1
--- replacement
	return 2
--- end
`)
	m, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "one" || m.File != "impl/a/a.go" || len(m.CaughtBy) != 2 || m.Original != "\treturn 1" || m.Validate() != nil {
		t.Fatalf("parsed %+v", m)
	}
	if c := m.CaughtBy[1]; c != (Catch{Layer: "stress", Pkg: "./stress", Run: "^TestG"}) {
		t.Fatalf("second entry %+v", c)
	}
	cp, err := CopyModule(root)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cp)
	if err := m.Apply(cp); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(cp, "impl/a/a.go"))
	if !strings.Contains(string(got), "return 2") {
		t.Fatalf("mutant not applied: %s", got)
	}
	orig, _ := os.ReadFile(filepath.Join(root, "impl/a/a.go"))
	if strings.Contains(string(orig), "return 2") {
		t.Fatal("the working tree was modified")
	}
	// Applied once, the original text is gone: applying again must fail.
	if err := m.Apply(cp); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("want a stale-catalog error, got %v", err)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"noend":   "file: x.go\nwhat: w\n--- original\na\n--- replacement\nb\n",
		"nofile":  "what: w\n--- original\na\n--- replacement\nb\n--- end\n",
		"same":    "file: x.go\nwhat: w\n--- original\na\n--- replacement\na\n--- end\n",
		"badhead": "file x.go\n--- original\na\n--- end\n",
		"scope":   "file: spec/x.go\nwhat: w\ncaught-by: unit:./spec:X\n--- original\na\n--- replacement\nb\n--- end\n",
	} {
		if _, err := Parse(write(t, dir, name+".mutant", body)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

func TestCaughtByEntries(t *testing.T) {
	good := "unit:./impl/queue:^TestA$ porcupine:./linearizability:^TestQ(Impl|Spec)$ chaos:./impl/sched:^TestBehaviour$/^ConcurrentWakes$ stress:./stress:^TestF$:x5"
	cs, err := ParseCatches(good)
	if err != nil || len(cs) != 4 {
		t.Fatalf("ParseCatches(%q) = %v, %v", good, cs, err)
	}
	if got := strings.Join(cs[2].Args("-count=1"), " "); got != "go test -race -tags chaos -count=1 -run ^TestBehaviour$/^ConcurrentWakes$ ./impl/sched" {
		t.Errorf("chaos args: %s", got)
	}
	if got := strings.Join(cs[0].Args(), " "); got != "go test -race -run ^TestA$ ./impl/queue" {
		t.Errorf("unit args: %s", got)
	}
	if got := strings.Join(cs[3].Args("-count=1"), " "); got != "go test -race -count=1 -count=5 -run ^TestF$ ./stress" || cs[3].String() != "stress:./stress:^TestF$:x5" {
		t.Errorf("counted entry: %s (%s)", got, cs[3])
	}
	for _, bad := range []string{
		"rapid porcupine",                    // free text
		"impl/queue TestA",                   // free text
		"fuzz:./impl/queue:TestA",            // unknown layer
		"unit:impl/queue:TestA",              // not ./-relative
		"unit:./impl/...:TestA",              // a pattern, not a package
		"unit:./impl/queue:",                 // no regexp
		"unit:./impl/queue:Test(",            // bad regexp
		"unit:./stress:TestRingConservation", // ./stress is the stress layer
		"stress:./impl/queue:TestA",          // and impl/queue is unit
		"porcupine:./stress:TestA",           // wrong layer
		"stress:./stress:TestA:x0",           // count out of range
	} {
		if _, err := ParseCatches(bad); err == nil {
			t.Errorf("ParseCatches(%q) accepted", bad)
		}
	}
}

func TestFreeTextCaughtByIsAProblemNotAParseError(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "x.mutant", "file: impl/x.go\nwhat: w\ncaught-by: rapid (impl/x TestX)\n--- original\na\n--- replacement\nb\n--- end\n")
	m, err := Parse(p)
	if err != nil {
		t.Fatalf("Parse: %v (a mutant being written must still apply)", err)
	}
	if m.Validate() == nil {
		t.Fatal("Validate accepted a free-text caught-by line")
	}
	p = write(t, dir, "y.mutant", "file: impl/x.go\nwhat: w\n--- original\na\n--- replacement\nb\n--- end\n")
	if m, err = Parse(p); err != nil || m.Validate() == nil {
		t.Fatalf("no caught-by line: Parse %v, Validate %v", err, m.Validate())
	}
}

func TestCatchingLayersAreDistinctAndOrdered(t *testing.T) {
	cs, err := ParseCatches("stress:./stress:^A$ unit:./impl/queue:^B$ stress:./stress:^C$ unit:./impl/sched:^D$")
	if err != nil {
		t.Fatal(err)
	}
	m := &Mutant{CaughtBy: cs}
	if got := strings.Join(m.CatchingLayers(), " "); got != "unit stress" {
		t.Fatalf("CatchingLayers = %q, want %q", got, "unit stress")
	}
}
