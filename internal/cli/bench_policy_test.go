package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/testdata/locomotest"
	"memtrace/policy"
)

// bench locomo --policy recalls under the file's policy and says so, in
// the text and in --json: the defaults spelt out as a file give the
// defaults' figures; a stricter relevance gate moves them.
func TestBenchLoCoMoUnderPolicy(t *testing.T) {
	locomotest.Require(t, locomoFile, "bench locomo --policy")
	run := func(args ...string) golden.LoCoMoResult {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"bench", "locomo", locomoFile, "--json", "--limit-conversations", "1", "--k", "5,10"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var r golden.LoCoMoResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	def := run()
	if def.Policy != nil {
		t.Fatalf("no --policy, yet policy %+v", def.Policy)
	}
	same := run("--policy", writePolicy(t, string(policy.Encode(engine.DefaultConfig()))))
	if same.Policy == nil || len(same.Policy.Changes) != 0 || !reflect.DeepEqual(same.Results, def.Results) {
		t.Fatalf("the defaults as a file: policy %+v, results equal %v", same.Policy, reflect.DeepEqual(same.Results, def.Results))
	}
	strict := writePolicy(t, "gate:\n  min_idf_share: 0.6\n")
	r := run("--policy", strict)
	if r.Policy == nil || r.Policy.File != strict || len(r.Policy.Changes) != 1 || r.Policy.Changes[0].Key != "gate.min_idf_share" || r.Policy.Changes[0].B != "0.6" {
		t.Fatalf("policy %+v", r.Policy)
	}
	if reflect.DeepEqual(r.Results, def.Results) {
		t.Fatal("a relevance gate six times stricter moved no figure")
	}
	text := mustRunCLI(t, "bench", "locomo", locomoFile, "--limit-conversations", "1", "--k", "5", "--policy", strict)
	if !strings.Contains(text, "policy "+strict+": gate.min_idf_share 0.1 → 0.6") {
		t.Fatalf("text form:\n%s", text)
	}
	if _, errOut, code := runCLI(t, "bench", "locomo", locomoFile, "--policy", writePolicy(t, "gate:\n  min_idf_shar: 0.6\n")); code == 0 || !strings.Contains(errOut, "unknown key") {
		t.Fatalf("a misspelt key: exit %d, %s", code, errOut)
	}
}
