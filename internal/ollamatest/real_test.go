package ollamatest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRealRequiredFails proves the CI guard: with MEMTRACE_REAL_OLLAMA=1
// and no reachable server, a real-server test fails instead of skipping.
// It runs the guard in a child test process so the failure is observed,
// not suffered.
func TestRealRequiredFails(t *testing.T) {
	if os.Getenv("OLLAMATEST_CHILD") == "1" {
		Real(t)
		return
	}
	for _, env := range [][]string{
		{"OLLAMA_HOST=", EnvRequire + "=1", "CI="},
		{"OLLAMA_HOST=127.0.0.1:1", EnvRequire + "=", "CI=true"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRealRequiredFails$", "-test.v")
		cmd.Env = append(os.Environ(), append(env, "OLLAMATEST_CHILD=1", EnvReport+"=")...) // the children's outcomes are not CI's
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "real Ollama required") {
			t.Fatalf("env %v: want a failure naming the requirement, got err=%v\n%s", env, err, out)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRealRequiredFails$", "-test.v")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST=", EnvRequire+"=", "CI=", "OLLAMATEST_CHILD=1", EnvReport+"=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SKIP real Ollama") {
		t.Fatalf("without the requirement the test must skip loudly, got err=%v\n%s", err, out)
	}
}
