package explore

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Claims (Options.Claims, ClaimsEnv) name a directory shared by several
// test processes that run the same scenarios at once, to use more than
// one core: the explorer runs one goroutine at a time, so one process
// keeps one core busy. Each Check claims its scenario there before
// running it, by creating a file named after it; the first process to get
// there runs it, and in every other one the test skips (t.Skip): the code
// after a Check reads what its schedules gathered, and a test that checks
// several scenarios goes on to the next ones in the process that ran the
// first. Each process goes through the tests in the same order and takes
// the next scenario nobody has yet, so the scenarios spread over the
// processes as they finish, the longest ones included. cmd/verify's
// explore and weak layers run one process per core (up to four) with a
// fresh directory each time. The directory must be empty at the start: a
// claim left from an earlier run keeps its scenario from running.

// claims holds the keys this process reached: each may be reached once.
var claims struct {
	sync.Mutex
	seen map[string]bool
}

// claim returns if this process runs the scenario (always, without
// Claims; else if it created the scenario's file first) and skips the
// test if not. The key holds what makes two checks of one name different:
// the package, the search's mode and the part of a sharded search. A key reached twice in one process
// (two Checks of one name, or go test -count above 1) fails the test: the
// processes could not agree which occurrence is which, and one could be
// run by nobody.
func claim(t testing.TB, name string, opt Options, compare bool) {
	t.Helper()
	dir := opt.Claims
	if dir == "" {
		return
	}
	key := fmt.Sprintf("%s %s weak=%v reduce=%v unbounded=%v long=%v classes=%v",
		packageDir(), name, opt.Weak, opt.Reduce, opt.Unbounded, opt.Long, compare)
	if opt.Shard.Split() {
		key += " shard=" + opt.Shard.String() // the parts of one search are different claims
	}
	claims.Lock()
	again := claims.seen[key]
	if claims.seen == nil {
		claims.seen = map[string]bool{}
	}
	claims.seen[key] = true
	claims.Unlock()
	if again {
		t.Fatalf("explore %s: checked twice in one process (two scenarios of one name, or go test -count above 1): with %s the processes cannot tell the occurrences apart; give each scenario its own name, or run without %s", name, ClaimsEnv, ClaimsEnv)
	}
	f, err := os.OpenFile(filepath.Join(dir, url.PathEscape(key)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	switch {
	case err == nil:
		fmt.Fprintf(f, "%d\n", os.Getpid())
		f.Close()
	case errors.Is(err, fs.ErrExist):
		t.Skipf("explore %s: run by another process (its claim is in %s=%s)", name, ClaimsEnv, dir)
	default:
		t.Fatalf("explore %s: claiming it in %s=%s: %v", name, ClaimsEnv, dir, err)
	}
}
