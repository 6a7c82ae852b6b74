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
