package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/golden"
)

// `bench open --one-shot` runs each command as a new process of the built
// binary on a database --keep left, and reports every command's wall, CPU
// and peak RSS; in a test binary (which would run the tests) and without
// --db it refuses, saying what to do.
func TestBenchOpenOneShot(t *testing.T) {
	bin := buildMemtrace(t)
	dir := t.TempDir()
	if out, err := exec.Command(bin, "bench", "open", "--n", "60", "--opens", "1", "--keep", dir).CombinedOutput(); err != nil {
		t.Fatalf("bench open --keep: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "open-60.db")
	out, err := exec.Command(bin, "bench", "open", "--one-shot", "--db", db, "--json").Output()
	if err != nil {
		t.Fatalf("bench open --one-shot: %v", err)
	}
	var got golden.OneShotResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Memories != 60 || got.FloorMB <= 0 || len(got.Commands) != 4 {
		t.Fatalf("one-shot result %+v", got)
	}
	for i, want := range []string{"list", "show", "recall", "mcp"} {
		c := got.Commands[i]
		if !strings.HasPrefix(c.Command, want) || c.WallMS <= 0 || c.CPUMS <= 0 || c.MaxRSSMB <= 0 {
			t.Errorf("command %d: %+v, want %s with its costs", i, c, want)
		}
	}
	// A failing command is an error, not a figure.
	if out, err := exec.Command(bin, "bench", "open", "--one-shot", "--db", filepath.Join(dir, "none.db")).CombinedOutput(); err == nil || !strings.Contains(string(out), "no database") {
		t.Errorf("--one-shot on a missing database: %v: %s", err, out)
	}
	if _, errOut, code := runCLI(t, "bench", "open", "--one-shot", "--db", db); code != 1 || !strings.Contains(errOut, "test binary") {
		t.Errorf("--one-shot from a test binary: exit %d: %s", code, errOut)
	}
	t.Setenv("MEMTRACE_DB", "")
	if _, errOut, code := runCLI(t, "bench", "open", "--one-shot"); code != 2 || !strings.Contains(errOut, "--keep DIR") {
		t.Errorf("--one-shot without --db: exit %d: %s", code, errOut)
	}
}
