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
}

func detectMachine() machine {
	m := machine{
		NumCPU: runtime.NumCPU(),
		OSArch: runtime.GOOS + "/" + runtime.GOARCH,
		CPU:    procField("/proc/cpuinfo", "model name"),
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
