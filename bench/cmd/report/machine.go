package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// machine describes where a report was made.
type machine struct {
	CPU      string // model name from /proc/cpuinfo, else go test's cpu: line
	NumCPU   int
	MemTotal string // from /proc/meminfo
	Go       string // go env GOVERSION
	OSArch   string
	Commit   string // HEAD of the work tree, "" outside a git checkout
	// LoadStart and LoadEnd are /proc/loadavg's 1, 5 and 15 minute load
	// averages as the run started and as it ended ("" where there is no
	// /proc): a load near or above NumCPU says that other work shared the
	// cores while the benchmarks ran.
	LoadStart, LoadEnd string
}

func detectMachine() machine {
	m := machine{
		NumCPU:    runtime.NumCPU(),
		OSArch:    runtime.GOOS + "/" + runtime.GOARCH,
		CPU:       procField("/proc/cpuinfo", "model name"),
		LoadStart: loadAverage(),
	}
	if mem := procField("/proc/meminfo", "MemTotal"); mem != "" {
		m.MemTotal = mem
		var kb float64
		if _, err := fmt.Sscanf(mem, "%f kB", &kb); err == nil {
			m.MemTotal = fmt.Sprintf("%.1f GiB", kb/(1<<20))
		}
	}
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		m.Go = strings.TrimSpace(string(out))
	} else {
		m.Go = runtime.Version()
	}
	// Read-only git queries: --no-optional-locks keeps status from rewriting the index.
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		m.Commit = strings.TrimSpace(string(out))
		st, err := exec.Command("git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no").Output()
		if err == nil && len(bytes.TrimSpace(st)) > 0 {
			m.Commit += " (with uncommitted changes)"
		}
	}
	return m
}

// loadAverage returns the 1, 5 and 15 minute load averages of
// /proc/loadavg, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	if f := strings.Fields(string(b)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// procField returns the value of the first "key : value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
