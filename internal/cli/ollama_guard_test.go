package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/internal/testdata/ollamatest"
)

// TestRealRequiredFails proves the CI guard: with MEMTRACE_REAL_OLLAMA=1
// and no reachable server, a real-server test fails instead of skipping.
// It runs the guard in a child test process so the failure is observed,
// not suffered.
func TestRealRequiredFails(t *testing.T) {
	if os.Getenv("OLLAMATEST_CHILD") == "1" {
		ollamatest.Real(t)
		return
	}
	// The children start where this package's tests start (TestMain moves
	// them to the module root from there).
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(root, "internal", "cli")
	for _, env := range [][]string{
		{"OLLAMA_HOST=", ollamatest.EnvRequire + "=1", "CI="},
		{"OLLAMA_HOST=127.0.0.1:1", ollamatest.EnvRequire + "=", "CI=true"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRealRequiredFails$", "-test.v")
		cmd.Dir = pkgDir
		cmd.Env = append(os.Environ(), append(env, "OLLAMATEST_CHILD=1", ollamatest.EnvReport+"=")...) // the children's outcomes are not CI's
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "real Ollama required") {
			t.Fatalf("env %v: want a failure naming the requirement, got err=%v\n%s", env, err, out)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRealRequiredFails$", "-test.v")
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), "OLLAMA_HOST=", ollamatest.EnvRequire+"=", "CI=", "OLLAMATEST_CHILD=1", ollamatest.EnvReport+"=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SKIP real Ollama") {
		t.Fatalf("without the requirement the test must skip loudly, got err=%v\n%s", err, out)
	}
}
