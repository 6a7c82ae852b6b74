// Command samecode checks that a change to impl/ leaves the machine code of
// the normal build unchanged: it builds the test binaries of impl/'s
// packages at a base revision and in the working tree, disassembles both
// (go tool objdump), and compares the instructions of every function of
// impl/, with what only moves from one build to the other (addresses,
// jump targets inside the function, offsets of data, the hash in a
// generic shape's name) written the same way in both.
//
//	go run ./cmd/samecode                  # against HEAD
//	go run ./cmd/samecode -base main~3 -v  # list the functions that differ, with a diff
//	go run ./cmd/samecode -rename impl/internal/sync=explore/sync  # a package moved since the base
//
// It exits 1 if a function of impl/ that is not a test differs, or exists
// only on one side. Test functions (Test*, Benchmark*, Example*, helpers in
// _test.go files) are counted but never fail it: the tests may change with
// the code. A function only one side has can be legitimate (inlining
// decisions moved): -v shows it, and the reason goes in the commit.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

var (
	base    = flag.String("base", "HEAD", "the git revision to compare the working tree with")
	pkgs    = flag.String("pkgs", "queue,deque,idle,park,forkjoin,sched", "impl/ packages whose test binaries are compared (comma-separated)")
	verbose = flag.Bool("v", false, "print each differing function's diff")
)

const module = "github.com/wsched/wsched/"

// The functions compared: impl/'s, and those of the packages impl/ reaches
// its atomics, locks and goroutine identity through, which are impl/'s
// code as far as the machine is concerned.
var (
	compared = regexp.MustCompile(`^github\.com/wsched/wsched/(impl|explore/atomic|explore/sync|internal/goid)[./]`)
	objdumpS = `github\.com/wsched/wsched/(impl|explore/atomic|explore/sync|internal/goid)`
)

// rename maps a package path of the base to its path in the working tree
// (-rename old=new,...), for a change that moves a package: the base's
// function names and call targets are read under the new names.
var rename = flag.String("rename", "", "old=new,... package paths (under the module) moved since the base")

func main() {
	flag.Parse()
	tmp, err := os.MkdirTemp("", "samecode")
	check(err)
	atExit(func() { os.RemoveAll(tmp) })
	wt := filepath.Join(tmp, "base")
	run("", "git", "worktree", "add", "--detach", "-q", wt, *base)
	atExit(func() { exec.Command("git", "worktree", "remove", "--force", wt).Run() })

	bad := 0
	for _, p := range strings.Split(*pkgs, ",") {
		oldBin := filepath.Join(tmp, "old_"+p)
		newBin := filepath.Join(tmp, "new_"+p)
		run(wt, "go", "test", "-c", "-o", oldBin, "./impl/"+p)
		run("", "go", "test", "-c", "-o", newBin, "./impl/"+p)
		old, cur := renamed(disassemble(oldBin)), disassemble(newBin)
		same, differ, tests := 0, 0, 0
		var names []string
		for n := range old {
			names = append(names, n)
		}
		for n := range cur {
			if _, ok := old[n]; !ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			o, inOld := old[n]
			c, inNew := cur[n]
			if inOld && inNew && slices.Equal(o, c) {
				same++
				continue
			}
			if isTest(n) {
				tests++
				continue
			}
			if !compared.MatchString(n) || strings.HasPrefix(n, module+"explore/atomic.") {
				continue // sync/atomic's and explore/atomic's own methods, kept for reflection
			}
			differ++
			switch {
			case !inNew:
				fmt.Printf("  only at %s: %s\n", *base, n)
			case !inOld:
				fmt.Printf("  only in the working tree: %s\n", n)
			default:
				fmt.Printf("  differs: %s\n", n)
				if *verbose {
					printDiff(o, c)
				}
			}
		}
		fmt.Printf("impl/%s: %d functions identical (tests included), %d differ, %d test functions differ (not counted)\n", p, same, differ, tests)
		bad += differ
	}
	if bad > 0 {
		fmt.Printf("FAIL: %d functions of impl/ compile to different code than at %s\n", bad, *base)
		exit(1)
	}
	fmt.Printf("ok: every function of impl/ compiles to the instructions it had at %s\n", *base)
	exit(0)
}

// cleanups are undone by exit, last first: os.Exit runs no deferred call,
// and a failure must not leave the base's git worktree behind.
var cleanups []func()

func atExit(f func()) { cleanups = append(cleanups, f) }

func exit(code int) {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}

var testName = regexp.MustCompile(`\.(Test|Benchmark|Example|Fuzz)[A-Z_]|_test\.|schedtest|queuecheck|\.bench[A-Z]`)

func isTest(name string) bool { return testName.MatchString(name) }

var (
	shapeHash = regexp.MustCompile(`go\.shape\.[0-9a-f]{64}`)
	ipRel     = regexp.MustCompile(`-?0x[0-9a-f]+\(IP\)`)
	symOff    = regexp.MustCompile(`\+[0-9]+\(SB\)`)
	hex       = regexp.MustCompile(`0x[0-9a-f]+`)
)

// renamed is fns with the base's package paths written as -rename says.
func renamed(fns map[string][]string) map[string][]string {
	if *rename == "" {
		return fns
	}
	var pairs []string
	for _, r := range strings.Split(*rename, ",") {
		o, n, ok := strings.Cut(r, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "samecode: -rename %q: want old=new\n", r)
			exit(2)
		}
		pairs = append(pairs, module+o+".", module+n+".")
	}
	rp := strings.NewReplacer(pairs...)
	res := make(map[string][]string, len(fns))
	for name, ins := range fns {
		out := make([]string, len(ins))
		for i, in := range ins {
			out[i] = rp.Replace(in)
		}
		res[rp.Replace(name)] = out
	}
	return res
}

type instr struct {
	addr uint64
	text string
}

// disassemble returns, per function of impl/ (and the test binary's own),
// its instructions with addresses normalised.
func disassemble(bin string) map[string][]string {
	out, err := exec.Command("go", "tool", "objdump", "-s", objdumpS, bin).Output()
	check(err)
	raw := map[string][]instr{}
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "TEXT ") {
			cur = shapeHash.ReplaceAllString(line[5:strings.LastIndex(line, "(SB)")], "go.shape.H")
			continue
		}
		var parts []string
		for _, f := range strings.Split(line, "\t") {
			if strings.TrimSpace(f) != "" {
				parts = append(parts, strings.TrimSpace(f))
			}
		}
		if cur == "" || len(parts) < 4 {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimPrefix(parts[1], "0x"), 16, 64)
		if err != nil {
			continue
		}
		raw[cur] = append(raw[cur], instr{addr, parts[3]})
	}
	res := map[string][]string{}
	for name, ins := range raw {
		start, end := ins[0].addr, ins[len(ins)-1].addr+16
		norm := make([]string, len(ins))
		for i, in := range ins {
			t := ipRel.ReplaceAllString(in.text, "X(IP)")
			t = symOff.ReplaceAllString(t, "+N(SB)")
			t = shapeHash.ReplaceAllString(t, "go.shape.H")
			t = hex.ReplaceAllStringFunc(t, func(h string) string {
				v, _ := strconv.ParseUint(h[2:], 16, 64)
				switch {
				case v >= start && v <= end:
					return fmt.Sprintf("L%d", v-start)
				case v > 0x100000:
					return "ADDR"
				}
				return h
			})
			norm[i] = t
		}
		res[name] = norm
	}
	return res
}

// printDiff prints the two instruction lists side by side from the first
// difference on (a short window: enough to see what moved).
func printDiff(a, b []string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for k := i; k < i+12 && (k < len(a) || k < len(b)); k++ {
		var x, y string
		if k < len(a) {
			x = a[k]
		}
		if k < len(b) {
			y = b[k]
		}
		mark := " "
		if x != y {
			mark = "!"
		}
		fmt.Printf("    %s %-40s | %s\n", mark, x, y)
	}
}

func run(dir string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "samecode: %s %s: %v\n", name, strings.Join(args, " "), err)
		exit(2)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "samecode:", err)
		exit(2)
	}
}
