package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var updateContracts = flag.Bool("update-contracts", false, "rewrite the recorded contracts (testdata/contracts/*.json, internal/cli/testdata/contracts/*.json) from the current output")

// The JSON contracts of DESIGN.md, recorded on the demo database before the
// CLI moved into its own package shape, minus the timing fields (*_ms).
// A contract may be extended, never renamed or cut: every key and value of
// the recording must still be produced, and arrays keep their length; keys
// the recording lacks are extensions and pass.
func TestJSONContractsUnchanged(t *testing.T) {
	db := demoDB(t)
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	cases := []struct {
		file string
		args []string
	}{
		{"recall_chungju_apple.json", []string{"--db", db, "recall", "충주 사과", "--json"}},
		{"recall_loose_chungju_90d.json", []string{"--db", db, "recall", looseChungju, "--at", "+90d", "--json"}},
		{"ingest_demo.json", []string{"--db", fresh, "ingest", "testdata/demo.jsonl", "--json"}},
		{"list_default.json", []string{"--db", db, "list", "--json"}},
		{"list_milestones.json", []string{"--db", db, "list", "--type", "milestone", "--json"}},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.file, ".json"), func(t *testing.T) {
			out, stderr, code := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
			}
			var got any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: not JSON: %v", c.args, err)
			}
			got = withoutTimings(got)
			path := filepath.Join("testdata", "contracts", c.file)
			if *updateContracts {
				b, err := json.MarshalIndent(got, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (record it with go test ./internal/cli -run TestJSONContractsUnchanged -update-contracts)", err)
			}
			var want any
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if diffs := contractDiff("$", want, got, nil); len(diffs) > 0 {
				if len(diffs) > 20 {
					diffs = append(diffs[:20], fmt.Sprintf("… and %d more", len(diffs)-20))
				}
				t.Errorf("%v no longer produces %s:\n  %s", c.args, path, strings.Join(diffs, "\n  "))
			}
		})
	}
}

// withoutTimings drops every key named *_ms, the only nondeterministic
// values of the contracts.
func withoutTimings(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.HasSuffix(k, "_ms") {
				delete(x, k)
				continue
			}
			x[k] = withoutTimings(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutTimings(e)
		}
	}
	return v
}

// contractDiff lists where got fails to produce want: a missing key, a
// changed value, an array of another length.
func contractDiff(path string, want, got any, diffs []string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(diffs, fmt.Sprintf("%s: want an object, got %T", path, got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			diffs = contractDiff(path+"."+k, w[k], gv, diffs)
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return append(diffs, fmt.Sprintf("%s: want an array of %d, got %s", path, len(w), brief(got)))
		}
		for i := range w {
			diffs = contractDiff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
		return diffs
	default:
		if !reflect.DeepEqual(want, got) {
			return append(diffs, fmt.Sprintf("%s: want %s, got %s", path, brief(want), brief(got)))
		}
		return diffs
	}
}

func brief(v any) string {
	if a, ok := v.([]any); ok {
		return fmt.Sprintf("an array of %d", len(a))
	}
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
