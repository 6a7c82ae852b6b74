//go:build !race

package queue

// ownerGuard checks a ring's single-owner rule only in a build with the
// race detector (owner_race.go); here it is empty and costs nothing.
type ownerGuard struct{}

func (*ownerGuard) enter(string) {}
func (*ownerGuard) exit()        {}
