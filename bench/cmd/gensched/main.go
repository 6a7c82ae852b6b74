// Command gensched writes sched_spec_test.go from sched_impl_test.go (see package
// internal/gensched). Run it from the bench module's root, or through `go generate`.
package main

import (
	"log"
	"os"

	"github.com/wsched/wsched/bench/internal/gensched"
)

func main() {
	src, err := os.ReadFile(gensched.Template)
	if err != nil {
		log.Fatal(err)
	}
	out, err := gensched.Transform(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(gensched.Output, out, 0o644); err != nil {
		log.Fatal(err)
	}
}
