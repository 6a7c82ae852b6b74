//go:build explore

package quickstart

import (
	"testing"

	"github.com/wsched/wsched/explore"
)

func TestBox(t *testing.T) {
	explore.Check(t, "box/put-get", explore.Options{}, func() {
		var b Box
		w := explore.Go("writer", func() { b.Put(42) })
		if v, ok := b.Get(); ok {
			explore.Assert(v == 42, "read %d", v)
		}
		w.Join()
	})
}
