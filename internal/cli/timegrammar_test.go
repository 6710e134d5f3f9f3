package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

// pinnedSet is a golden set without fixture and without defaults.at: it
// runs against --db, and its times count from the database's clock.
func pinnedSet(t *testing.T, probeAt string) string {
	t.Helper()
	at := ""
	if probeAt != "" {
		at = fmt.Sprintf("    at: %q\n", probeAt)
	}
	path := filepath.Join(t.TempDir(), "pinned.yaml")
	body := "name: pinned\nprobes:\n  - id: apple\n    query: \"충주 사과\"\n" + at + "    expect: {present: [\"text:충주\"]}\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every entry point of the CLI that takes a time reads the one grammar of
// engine/timegrammar.tsv (engine.TimeExamples, which `memtrace help time`
// prints), from the demo database's pinned clock, and rejects the same
// inputs with the same message (the TUI's override, the golden YAML and
// engine.ParseAt are held to the same table in their own packages).
func TestTimeGrammarEveryEntryPoint(t *testing.T) {
	db := demoDB(t)
	type entry struct {
		name  string
		args  func(in string) []string
		field func(out []byte) (time.Time, error) // the time the command ran at
		code  int                                 // exit code of a rejected time
	}
	atField := func(key string) func([]byte) (time.Time, error) {
		return func(out []byte) (time.Time, error) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(out, &m); err != nil {
				return time.Time{}, err
			}
			var at time.Time
			err := json.Unmarshal(m[key], &at)
			return at, err
		}
	}
	probeAt := func(out []byte) (time.Time, error) {
		var r struct {
			Probes []struct {
				At time.Time `json:"at"`
			} `json:"probes"`
		}
		if err := json.Unmarshal(out, &r); err != nil || len(r.Probes) != 1 {
			return time.Time{}, fmt.Errorf("not a one-probe run (%v): %.200s", err, out)
		}
		return r.Probes[0].At, nil
	}
	plainSet := pinnedSet(t, "")
	entries := []entry{
		{"recall --at", func(in string) []string { return []string{"recall", "충주 사과", "--at", in, "--json"} }, atField("at"), 2},
		{"compare --at-a", func(in string) []string { return []string{"compare", "충주 사과", "--at-a", in, "--json"} }, atField("at_a"), 2},
		{"compare --at-b", func(in string) []string { return []string{"compare", "충주 사과", "--at-b", in, "--json"} }, atField("at_b"), 2},
		{"forecast --at", func(in string) []string { return []string{"forecast", "--at", in, "--n", "1", "--json"} }, atField("at"), 2},
		{"heartbeat --at", func(in string) []string { return []string{"heartbeat", "--at", in, "--dry-run", "--json"} }, atField("at"), 2},
		{"golden run --at", func(in string) []string { return []string{"golden", "run", plainSet, "--at", in, "--json"} }, probeAt, 2},
		{"golden YAML at", func(in string) []string { return []string{"golden", "run", pinnedSet(t, in), "--json"} }, probeAt, 1},
	}
	examples, exErr := engine.TimeExamples()
	if exErr != nil {
		t.Fatal(exErr)
	}
	for _, c := range examples {
		for _, ep := range entries {
			args := append([]string{"--db", db}, ep.args(c.Input)...)
			out, stderr, code := runCLI(t, args...)
			if c.Error != "" {
				if code != ep.code || !strings.Contains(stderr, c.Error) {
					t.Errorf("%s %q: exit %d, stderr %q; want exit %d saying %q", ep.name, c.Input, code, stderr, ep.code, c.Error)
				}
				continue
			}
			if code != 0 {
				t.Errorf("%s %q: exit %d: %s", ep.name, c.Input, code, stderr)
				continue
			}
			got, err := ep.field([]byte(out))
			if err != nil || !got.Equal(c.Want) {
				t.Errorf("%s %q: ran at %v (%v), want %v", ep.name, c.Input, got, err, c.Want)
			}
		}
	}
	// Without any time, a set without fixture runs at the database's pinned
	// clock (it used to take the wall clock).
	if out, stderr, code := runCLI(t, "--db", db, "golden", "run", plainSet, "--json"); code != 0 {
		t.Errorf("golden run: exit %d %s", code, stderr)
	} else if at, err := probeAt([]byte(out)); err != nil || !at.Equal(engine.TimeExamplesNow) {
		t.Errorf("golden run without --at ran at %v (%v), want the pinned clock %v", at, err, engine.TimeExamplesNow)
	}
	// golden stress rejects a bad --at before it builds anything.
	if _, stderr, code := runCLI(t, "golden", "stress", demoSet, "--at", "+3y"); code != 2 || !strings.Contains(stderr, `bad time offset "+3y"`) {
		t.Errorf("golden stress --at +3y: exit %d, %q", code, stderr)
	}
}
