package orderings

import "testing"

// TestCommentFor: the comment of an operation is the one on its line, else
// the block above its statement, above a fence or a yield point too.
func TestCommentFor(t *testing.T) {
	lines := []string{
		"\t// publishes the slot",
		"\tatomic.FenceRelease()",
		"\td.bottom.StoreRelaxed(b + 1)",
		"\tx := y.LoadAcquire() // observes z",
		"\tfoo()",
		"\tw.LoadRelaxed()",
	}
	for line, want := range map[int]string{2: "publishes the slot", 3: "publishes the slot", 4: "observes z", 6: ""} {
		if got := commentFor(lines, line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
}

func TestExcludesExplore(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"//go:build race && !explore\n\npackage q\n", true},
		{"//go:build !explore\n\npackage q\n", true},
		{"//go:build tlatrace && !explore\n\npackage q\n", true},
		{"//go:build !race || explore\n\npackage q\n", false},
		{"//go:build explore\n\npackage q\n", false},
		{"//go:build race\n\npackage q\n", false},
		{"// a comment\n\npackage q\n", false},
		{"package q\n\n//go:build !explore\n", false},
	} {
		if got := ExcludesExplore([]byte(c.src)); got != c.want {
			t.Errorf("ExcludesExplore(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
