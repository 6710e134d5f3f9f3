package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseBinaryGoldenOutsideRepo builds the binary as a release is
// built (-trimpath, stripped) into a temporary directory, copies nothing
// else, and runs `memtrace demo` there — a working directory with no
// testdata/ anywhere above it. The Golden tab must open the demo's set from
// the copy built into the binary and run it to the reviewed baseline.
func TestReleaseBinaryGoldenOutsideRepo(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the release-binary end-to-end test needs it (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("-short: the end-to-end TUI test builds the binary")
	}
	dir := t.TempDir()
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "testdata", "golden", "demo.yaml")); err == nil {
			t.Fatalf("the temporary directory %s sits under a tree with testdata/golden/demo.yaml (%s): the test would not be outside the repository", dir, d)
		}
	}
	bin := filepath.Join(dir, "memtrace")
	if out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cache := filepath.Join(dir, "cache")
	s := startTmuxIn(t, dir, dir, 120, 40, "env", "XDG_CACHE_HOME="+cache, bin, "demo", "--db", filepath.Join(dir, "demo.db"))
	s.waitText(t, "1 Trace", "query ›")
	s.send(t, "2")
	screen := s.waitText(t, "2 Golden", demoProbes(t), "greeting-annyeong", "built into memtrace")
	if strings.Contains(screen, "no golden set") {
		t.Fatalf("the Golden tab found no set:\n%s", screen)
	}
	s.send(t, "r")
	s.waitText(t, demoPassed(t), "vs baseline: no regression")
	s.send(t, "q")
	s.waitExit(t)
	if _, err := os.Stat(filepath.Join(cache, "memtrace")); err != nil {
		t.Errorf("the built-in set was not copied under XDG_CACHE_HOME: %v", err)
	}
}
