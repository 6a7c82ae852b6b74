package main

import (
	"slices"
	"testing"
)

func TestSplitByDepFindsRapidUsers(t *testing.T) {
	with, without, err := splitByDep("pgregory.net/rapid", "../../impl/...")
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	t.Logf("with rapid: %v; without: %v", with, without)
	if !slices.Contains(with, "./impl/queue") {
		t.Errorf("./impl/queue (TestRingRapid) not among the rapid users: %v", with)
	}
	if slices.Contains(with, "./impl/fastrand") || !slices.Contains(without, "./impl/fastrand") {
		t.Errorf("./impl/fastrand does not use rapid: with %v, without %v", with, without)
	}
}
