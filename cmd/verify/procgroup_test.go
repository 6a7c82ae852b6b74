//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A command that times out takes what it started with it: the shell's
// background sleep (standing in for a test binary go test started) is gone
// once runOne returns.
func TestTimeoutKillsWhatTheCommandStarted(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "sleep 60 & echo $! > " + pidFile + "; wait"
	var r result
	start := time.Now()
	ok, why := runOne([]string{"sh", "-c", script}, os.Environ(), 500*time.Millisecond, filepath.Join(dir, "log"), &r)
	if ok || !strings.Contains(why, "timed out") {
		t.Fatalf("runOne = %v, %q; want a timeout", ok, why)
	}
	if _, ok := r.cpu.known(); ok {
		t.Errorf("cpu %+v: a command killed at its limit has its children's CPU uncounted, and shows none", r.cpu)
	}
	if d := time.Since(start); d > 9*time.Second {
		t.Errorf("runOne took %v: it waited for the child's pipes instead of killing it", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// Killed: gone, or a zombie left for init to reap.
	deadline := time.Now().Add(5 * time.Second)
	for {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return // gone
		}
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command's child %d still runs after the command timed out: %s", pid, stat)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
