package main

import (
	"slices"
	"testing"
)

// The explorer layers' commands get impl/'s coverage flags right after
// "go test" (past the environment words), and the profile is kept for
// the gate; the layers that gate name their mode.
func TestCoverArgvAddsTheProfile(t *testing.T) {
	var r result
	got := r.coverArgv([]string{"WSCHED_EXPLORE_REDUCE=1", "go", "test", "-tags", "explore,weak", "./x"}, "/l/weak-0-1.cover")
	want := []string{"WSCHED_EXPLORE_REDUCE=1", "go", "test", "-covermode=set", "-coverpkg=./impl/...", "-coverprofile=/l/weak-0-1.cover", "-tags", "explore,weak", "./x"}
	if !slices.Equal(got, want) || !slices.Equal(r.profiles, []string{"/l/weak-0-1.cover"}) {
		t.Errorf("coverArgv = %q, profiles %q", got, r.profiles)
	}
	modes := map[string]string{}
	for _, l := range layers("") {
		if l.reach != "" {
			modes[l.name] = l.reach
		}
	}
	if len(modes) != 2 || modes["explore"] != "plain" || modes["weak"] != "weak" {
		t.Errorf("layers gating on reach: %v, want explore (plain) and weak (weak)", modes)
	}
}
