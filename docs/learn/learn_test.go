package learn

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// LearnEnv, set to "all", runs the slow commands too: the mutant kills.
const LearnEnv = "WSCHED_LEARN"

var update = flag.Bool("update", false, "rewrite each lesson's output blocks with what the commands print")

// root is the repository's root, where every command of the lessons runs.
const root = "../.."

// A block is a fenced block of a lesson.
type block struct {
	info       string
	lines      []string
	start, end int // line indexes of the opening and closing fences
}

type lesson struct {
	name   string
	lines  []string
	blocks []block
}

func readLesson(t *testing.T, path string) lesson {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := lesson{name: filepath.Base(path), lines: strings.Split(string(data), "\n")}
	for i := 0; i < len(l.lines); i++ {
		line := l.lines[i]
		if !strings.HasPrefix(line, "```") {
			continue
		}
		b := block{info: strings.TrimSpace(strings.TrimPrefix(line, "```")), start: i}
		for i++; i < len(l.lines) && !strings.HasPrefix(l.lines[i], "```"); i++ {
			b.lines = append(b.lines, l.lines[i])
		}
		if i == len(l.lines) {
			t.Fatalf("%s:%d: fenced block never closed", l.name, b.start+1)
		}
		b.end = i
		l.blocks = append(l.blocks, b)
	}
	return l
}

func lessons(t *testing.T) []string {
	files, err := filepath.Glob("*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	return files
}

// commands returns a run block's commands: its lines, blank lines and
// comments left out.
func (b block) commands() []string {
	var out []string
	for _, l := range b.lines {
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	return out
}

// output returns the output block that follows run block k (only blank
// lines between), or -1.
func (l lesson) output(k int) int {
	if k+1 >= len(l.blocks) || l.blocks[k+1].info != "output" {
		return -1
	}
	for _, s := range l.lines[l.blocks[k].end+1 : l.blocks[k+1].start] {
		if strings.TrimSpace(s) != "" {
			return -1
		}
	}
	return k + 1
}

var foundRE = regexp.MustCompile(`[Ff]ound at schedule ([0-9][0-9,]*), (\d+) preemptions?`)

// answer returns the schedule and preemptions stated in the first
// <details> block after line from, and the line it is on.
func (l lesson) answer(from int) (schedule, preemptions, line int, ok bool) {
	in := false
	for i := from; i < len(l.lines); i++ {
		s := l.lines[i]
		if strings.Contains(s, "<details>") {
			in = true
		}
		if in {
			if m := foundRE.FindStringSubmatch(s); m != nil {
				schedule, _ = strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
				preemptions, _ = strconv.Atoi(m[2])
				return schedule, preemptions, i, true
			}
		}
		if strings.Contains(s, "</details>") && in {
			return 0, 0, 0, false
		}
	}
	return 0, 0, 0, false
}

func slow(cmd string) bool { return strings.Contains(cmd, "./cmd/mutant ") }

// TestLessons runs every command of every lesson.
func TestLessons(t *testing.T) {
	all := os.Getenv(LearnEnv) == "all"
	var commands, outputs, kills, notRun, prose int
	defer func() {
		// cmd/verify adds these up; a kill not run is counted, never
		// reported as confirmed.
		t.Logf("METRIC learn_commands=%d learn_outputs=%d learn_kills=%d learn_kills_not_run=%d", commands, outputs, kills, notRun)
		t.Logf("the text after the commands that ran: %d references to their output (lines, steps, schedules, quotes) checked", prose)
	}()
	for _, path := range lessons(t) {
		l := readLesson(t, path)
		t.Run(strings.TrimSuffix(l.name, ".md"), func(t *testing.T) {
			changed := false
			for k, b := range l.blocks {
				if b.info != "sh run" {
					continue
				}
				cmds := b.commands()
				if len(cmds) == 0 {
					t.Errorf("%s:%d: a run block with no command", l.name, b.start+1)
					continue
				}
				where := fmt.Sprintf("%s:%d", l.name, b.start+2)
				isSlow := slices.ContainsFunc(cmds, slow)
				if isSlow && !all {
					t.Logf("%s: not run (a mutant kill: %s=all, or go run ./cmd/verify -only learn): %s", where, LearnEnv, cmds[0])
					notRun++
					continue
				}
				var out bytes.Buffer
				for _, c := range cmds {
					commands++
					o, err := run(c)
					out.Write(o)
					switch {
					case slow(c) && (err != nil || !bytes.Contains(o, []byte("\nKILLED "))):
						// cmd/mutant exits 0 on KILLED, 1 on SURVIVED.
						t.Errorf("%s: %s\nexpected the mutant KILLED (%v):\n%s", where, c, err, o)
					case !slow(c) && err != nil:
						t.Errorf("%s: %s: %v\n%s", where, c, err, o)
					}
				}
				if m := foundRE.FindSubmatch(out.Bytes()); m != nil {
					gotS, _ := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
					gotP, _ := strconv.Atoi(string(m[2]))
					s, p, line, ok := l.answer(b.end)
					switch {
					case !ok:
						t.Errorf("%s: the command found a failure at schedule %d, %d preemptions, but no <details> answer after it says \"found at schedule N, P preemptions\"", where, gotS, gotP)
					case s != gotS || p != gotP:
						t.Errorf("%s:%d: the answer says found at schedule %d, %d preemptions; the command found it at schedule %d, %d preemptions: update the lesson", l.name, line+1, s, p, gotS, gotP)
					case isSlow:
						kills++
					}
				} else if isSlow {
					t.Errorf("%s: the command printed no \"found at schedule\" line:\n%s", where, out.String())
				}
				n, problems := checkSection(where, l.section(k), out.String())
				prose += n
				for _, p := range problems {
					t.Error(p)
				}
				if o := l.output(k); o >= 0 {
					outputs++
					want := strings.Join(l.blocks[o].lines, "\n")
					got := strings.TrimRight(trimLines(out.String()), "\n")
					if got != want {
						if *update {
							l.blocks[o].lines = strings.Split(got, "\n")
							changed = true
						} else {
							t.Errorf("%s: the output shown differs from what the command prints (go test ./docs/learn -update rewrites it):\n--- lesson\n%s\n--- command\n%s", where, want, got)
						}
					}
				}
			}
			if changed {
				rewrite(t, l)
			}
		})
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	return strings.Join(lines, "\n")
}

func rewrite(t *testing.T, l lesson) {
	var out []string
	next := 0
	for _, b := range l.blocks {
		out = append(out, l.lines[next:b.start+1]...)
		out = append(out, b.lines...)
		next = b.end
	}
	out = append(out, l.lines[next:]...)
	if err := os.WriteFile(l.name, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: output blocks rewritten", l.name)
}

// run runs one command with sh in the repository's root.
func run(c string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c)
	cmd.Dir = root
	return cmd.CombinedOutput()
}

var (
	mutantRE = regexp.MustCompile(`\./cmd/mutant ([a-z0-9-]+) --`)
	runRE    = regexp.MustCompile(`-run '\^?([A-Za-z0-9_]+)\$?'((?: [^ ]+)*) (\./[A-Za-z0-9_./-]+)$`)
	pathRE   = regexp.MustCompile("`((?:impl|spec|model|tla|docs|explore|mutants|examples|cmd|stress|linearizability)/[A-Za-z0-9_./-]*[A-Za-z0-9_/])`")
	linkRE   = regexp.MustCompile(`\]\(([^)#: ]+)(#[^)]*)?\)`)
)

// TestLessonsReferToWhatExists checks, without running anything, what a
// rename would break: the mutants the commands name, the tests their -run
// patterns select, the files and folders the text names in backquotes, the
// links; and that every shell block is a run block (no command goes
// untested).
func TestLessonsReferToWhatExists(t *testing.T) {
	for _, path := range lessons(t) {
		l := readLesson(t, path)
		for _, b := range l.blocks {
			where := fmt.Sprintf("%s:%d", l.name, b.start+1)
			switch b.info {
			case "sh run":
			case "sh level":
				// A level: an exercise's run command with the play
				// tree on, which TestProseExercisesAreLevels keeps
				// equal to it (the command itself is run there).
			case "sh", "bash", "shell", "console":
				t.Errorf("%s: a shell block not marked `sh run` (or `sh level`): every command of a lesson is run by this test", where)
				continue
			default:
				continue
			}
			for _, c := range b.commands() {
				if m := mutantRE.FindStringSubmatch(c); m != nil {
					if _, err := os.Stat(filepath.Join(root, "mutants", m[1]+".mutant")); err != nil {
						t.Errorf("%s: mutant %s is not in the catalog", where, m[1])
					}
				}
				if m := runRE.FindStringSubmatch(c); m != nil {
					dir := filepath.Join(root, m[3])
					if strings.HasPrefix(c, "cd examples") {
						dir = filepath.Join(root, "examples", m[3])
					}
					if !defines(t, dir, m[1]) {
						t.Errorf("%s: no func %s in %s", where, m[1], m[3])
					}
				}
			}
		}
		for i, s := range l.lines {
			for _, m := range pathRE.FindAllStringSubmatch(s, -1) {
				if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
					t.Errorf("%s:%d: `%s` does not exist", l.name, i+1, m[1])
				}
			}
			for _, m := range linkRE.FindAllStringSubmatch(s, -1) {
				if _, err := os.Stat(m[1]); err != nil {
					t.Errorf("%s:%d: link to %s, which does not exist", l.name, i+1, m[1])
				}
			}
		}
	}
}

// defines reports whether a Go file of dir declares func name.
func defines(t *testing.T, dir, name string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("func "+name+"(")) {
			return true
		}
	}
	return false
}
