//go:build !race || explore

package queue

import "github.com/wsched/wsched/explore/sync"

// globalLock is Global's lock: a sync.Mutex (the explorer's under the
// explore tag). Race builds without the explore tag use the lock of
// globallock_race.go.
type globalLock = sync.Mutex
