//go:build !race

package racerecipe

import "testing"

// TestRaceRecipe is recipe_race_test.go's: it needs the race detector.
func TestRaceRecipe(t *testing.T) {
	t.Skip("SKIPPED: the race detector is off in this build; TestRaceRecipe runs under go test -race (CI's README command)")
}
