// Command report runs the benchmark suite of the bench module and writes the results to
// docs/performance.md (a table per workload: median ns/task with its 95% confidence interval,
// min and max, allocations per task) and docs/performance.svg (a grouped bar chart).
//
// Run it from the bench directory:
//
//	go run ./cmd/report -count 6
//
// It runs `go test -run '^$' -bench . -count 6` in one test binary, keeps the raw output in
// results/latest.txt (benchstat's input format), parses it with golang.org/x/perf/benchfmt
// and summarizes each row with golang.org/x/perf/benchmath, as benchstat does.
//
// With -in FILE it builds the page from saved output instead of running anything. With
// -skeleton it writes the page with no results (the description of the suite only). With
// -profile it also takes a CPU profile of each scheduler workload of the production
// scheduler and adds a breakdown of where the time goes per task (profile.go).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const benchModule = "github.com/wsched/wsched/bench"

func main() {
	log.SetFlags(0)
	log.SetPrefix("report: ")
	var (
		count     = flag.Int("count", 6, "runs of each benchmark (go test -count); 6 is the fewest with a 95% CI of the median")
		bench     = flag.String("bench", ".", "benchmarks to run (go test -bench)")
		benchtime = flag.String("benchtime", "", "go test -benchtime, empty for go test's default")
		tags      = flag.String("tags", "", "go test -tags")
		timeout   = flag.String("timeout", "60m", "go test -timeout")
		in        = flag.String("in", "", "build the page from this saved go test -bench output instead of running")
		raw       = flag.String("raw", "results/latest.txt", "where to keep the raw output of the run (empty: do not keep)")
		mdPath    = flag.String("md", "../docs/performance.md", "page to write")
		svgPath   = flag.String("svg", "../docs/performance.svg", "chart to write")
		skeleton  = flag.Bool("skeleton", false, "write the page without results and exit")
		profile   = flag.Bool("profile", false, "also CPU-profile each scheduler workload of the production scheduler and add the time breakdown")
		proftime  = flag.String("profiletime", "2s", "-benchtime of each profiled run")
		race      = flag.Bool("race", false, "also run the benchmarks with -race and add the race build's section")
		racein    = flag.String("racein", "", "build the race build's section from this saved go test -race -bench output instead of running")
		rawRace   = flag.String("rawrace", "results/latest-race.txt", "where to keep the raw output of the -race run (empty: do not keep)")
		recipein  = flag.String("recipein", "", "build the fast race build's section from this saved output (go test -race with RecipeFlags) instead of running")
		rawRecipe = flag.String("rawrecipe", "results/latest-race-recipe.txt", "where to keep the raw output of -race's second run, wsched outside the detector (empty: do not keep)")
		sweep     = flag.String("sweep", "", "also run the scheduler workloads at these GOMAXPROCS values (go test -cpu, e.g. 1,2,4) and add the sweep's section")
		sweepin   = flag.String("sweepin", "", "build the sweep's section from this saved go test -cpu output instead of running")
		rawSweep  = flag.String("rawsweep", "results/latest-sweep.txt", "where to keep the raw output of the -sweep run (empty: do not keep)")
	)
	flag.Parse()
	if err := checkModuleRoot(); err != nil {
		log.Fatal(err)
	}
	m := detectMachine()
	if *skeleton {
		writeFile(*mdPath, []byte(skeletonMarkdown(m)))
		return
	}

	var output []byte
	var cmdline string
	var args []string
	if *in != "" {
		b, err := os.ReadFile(*in)
		if err != nil {
			log.Fatal(err)
		}
		output, cmdline = b, "go test -bench (saved output "+filepath.Base(*in)+")"
	} else {
		args = []string{"test", "-run", "^$", "-bench", *bench, "-count", fmt.Sprint(*count), "-timeout", *timeout}
		if *benchtime != "" {
			args = append(args, "-benchtime", *benchtime)
		}
		if *tags != "" {
			args = append(args, "-tags", *tags)
		}
		args = append(args, ".")
		output, cmdline = runBench(args, *raw)
	}
	var raceGroups []*group
	var raceCmdline string
	if *racein != "" || *race {
		var raceOutput []byte
		if *racein != "" {
			b, err := os.ReadFile(*racein)
			if err != nil {
				log.Fatal(err)
			}
			raceOutput, raceCmdline = b, "go test -race -bench (saved output "+filepath.Base(*racein)+")"
		} else {
			if args == nil {
				log.Fatal("-race runs the benchmarks: with -in, give the race build's output with -racein")
			}
			raceOutput, raceCmdline = runBench(append([]string{"test", "-race"}, args[1:]...), *rawRace)
		}
		var err error
		if raceGroups, _, err = parse(bytes.NewReader(raceOutput), "go test -race output"); err != nil {
			log.Fatal(err)
		}
	}
	// The fast race build (RecipeFlags), run with -race too: its rows sit next to the
	// instrumented build's, from the same session.
	var recipeGroups []*group
	var recipeCmdline string
	if *recipein != "" || (*race && *racein == "") {
		var recipeOutput []byte
		if *recipein != "" {
			b, err := os.ReadFile(*recipein)
			if err != nil {
				log.Fatal(err)
			}
			recipeOutput, recipeCmdline = b, "go test -race "+strings.Join(RecipeFlags, " ")+" -bench (saved output "+filepath.Base(*recipein)+")"
		} else {
			recipeOutput, recipeCmdline = runBench(append(append([]string{"test", "-race"}, RecipeFlags...), args[1:]...), *rawRecipe)
		}
		var err error
		if recipeGroups, _, err = parse(bytes.NewReader(recipeOutput), "go test -race (wsched outside the detector) output"); err != nil {
			log.Fatal(err)
		}
	}

	var sweepRows []*sweepRow
	var sweepProcs []int
	var sweepCmdline string
	if *sweepin != "" || *sweep != "" {
		var sweepOutput []byte
		if *sweepin != "" {
			b, err := os.ReadFile(*sweepin)
			if err != nil {
				log.Fatal(err)
			}
			sweepOutput, sweepCmdline = b, "go test -cpu (saved output "+filepath.Base(*sweepin)+")"
		} else {
			sargs := []string{"test", "-run", "^$", "-bench", sweepBench, "-cpu", *sweep, "-count", fmt.Sprint(*count), "-timeout", *timeout}
			if *benchtime != "" {
				sargs = append(sargs, "-benchtime", *benchtime)
			}
			sweepOutput, sweepCmdline = runBench(append(sargs, "."), *rawSweep)
		}
		var err error
		if sweepRows, sweepProcs, err = parseSweep(bytes.NewReader(sweepOutput), "go test -cpu output"); err != nil {
			log.Fatal(err)
		}
	}

	groups, hdr, err := parse(bytes.NewReader(output), "go test output")
	if err != nil {
		log.Fatal(err)
	}
	feel, err := parseFeel(bytes.NewReader(output), "go test output")
	if err != nil {
		log.Fatal(err)
	}
	floor, err := parseFloor(bytes.NewReader(output), "go test output")
	if err != nil {
		log.Fatal(err)
	}
	runs := 0
	for _, g := range groups {
		for _, r := range g.Rows {
			runs = max(runs, len(r.NsPerTask))
		}
	}
	var bs []*breakdown
	if *profile {
		dir, err := os.MkdirTemp("", "wsched-profile-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if bs, err = profileAll(dir, *proftime); err != nil {
			log.Fatal(err)
		}
	}
	if *in == "" {
		m.LoadEnd = loadAverage() // a page built from saved output did not see the run's load
	} else {
		m.LoadStart = ""
	}
	svgRel, err := filepath.Rel(filepath.Dir(*mdPath), *svgPath)
	if err != nil {
		svgRel = *svgPath
	}
	writeFile(*svgPath, []byte(svgChart(groups, runs)))
	page := resultsMarkdown(groups, hdr, m, cmdline, runs, filepath.ToSlash(svgRel), floorMarkdown(groups, floor)+feelMarkdown(feel)+rescueMarkdown(groups, feel)+raceMarkdown(groups, raceGroups, raceCmdline)+raceRecipeMarkdown(groups, recipeGroups, recipeCmdline)+sweepMarkdown(sweepRows, sweepProcs, sweepCmdline), breakdownMarkdown(bs, *proftime))
	writeFile(*mdPath, []byte(page))
}

// runBench runs go with args, echoing its output, keeps the output at raw (unless empty) and
// returns it with the command line; it exits if the command fails.
func runBench(args []string, raw string) ([]byte, string) {
	cmdline := "go " + shellJoin(args)
	log.Printf("running %s", cmdline)
	var buf bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Stdout = io.MultiWriter(os.Stdout, &buf)
	cmd.Stderr = os.Stderr
	runErr := cmd.Run()
	if raw != "" {
		writeFile(raw, buf.Bytes())
	}
	if runErr != nil {
		log.Fatalf("%s: %v (page not written)", cmdline, runErr)
	}
	return buf.Bytes(), cmdline
}

// checkModuleRoot makes sure the command runs in the bench module's root, where the
// default paths (../docs, results/) and `go test .` mean what they should.
func checkModuleRoot() error {
	b, err := os.ReadFile("go.mod")
	if err == nil && bytes.Contains(b, []byte("module "+benchModule+"\n")) {
		return nil
	}
	return errors.New("run me from the bench directory: cd bench && go run ./cmd/report")
}

func writeFile(path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s", path)
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " ^$*?'\"\\|&;<>()") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}
