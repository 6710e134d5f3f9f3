package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/cli"
	"memtrace/store"
	"memtrace/ui"
)

const locomoPath = "../../shared/data/locomo10.json"

// locomoClock pins the database's clock to the morning after conv-44's last
// session (22 November 2023), so "now" is the same instant for the TUI and
// the CLI and the offsets reach across the conversation's forgetting.
const locomoClock = "2023-11-23T09:00:00Z"

// The TUI's split view and `memtrace compare --json` agree, set for set, on
// a LoCoMo-imported database (conv-44, 675 turns): for its first 50
// questions, among them the one the disagreement was first seen with, at
// each step of the time override, +1d … +365d, the split model's
// forgotten, left, held, rose, fell and new memories are compare's.
func TestSplitViewAgreesWithCompareOnLoCoMo(t *testing.T) {
	if testing.Short() {
		t.Log("SKIPPED: the LoCoMo split-vs-compare acceptance test (1,000 recalls) does not run with -short")
		t.Skip("-short: the LoCoMo split-vs-compare acceptance test is skipped")
	}
	db, questions := locomoDB(t, map[string]int{"conv-44": 50})
	if !slices.Contains(questions, "When did Audrey's positive reinforcement training course for dogs take place?") {
		t.Fatal("the question of the original report is not among the questions")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now, _ := time.Parse(time.RFC3339, locomoClock)
	clock := func() time.Time { return now }
	eng, err := engine.Open(ctx, engine.Options{Store: st, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	deps := ui.Deps{Engine: eng, Store: st, Now: clock}

	pairs, total := 0, map[string]int{}
	for _, q := range questions {
		for _, step := range ui.SplitStepsForTest(t, deps, q) {
			pairs++
			c := compareJSON(t, db, q, step.Label)
			if !c.AtA.Equal(now) || !c.AtB.Equal(step.At) {
				t.Fatalf("%q %s: compare ran at %v → %v, the TUI at %v → %v", q, step.Label, c.AtA, c.AtB, now, step.At)
			}
			want := map[string][]inspector.Change{"forgotten": c.Forgotten, "left": c.Left, "held": c.Held,
				"rose": c.Rose, "fell": c.Fell, "new": c.New}
			for name, changes := range want {
				cli, tui := ids(changes), slices.Sorted(slices.Values(step.Sets[name]))
				total[name] += len(cli)
				if !slices.Equal(cli, tui) {
					t.Errorf("%q at %s: %s — compare %v, TUI split %v", q, step.Label, name, cli, tui)
				}
			}
		}
	}
	t.Logf("%d question × offset pairs agree; members over all pairs: %v", pairs, total)
	if pairs < 250 {
		t.Errorf("only %d pairs compared, want ≥ 250 (50 questions × 5 offsets)", pairs)
	}
	// The agreement means something only if the pairs disagree with "nothing
	// changed": every kind of change occurs somewhere.
	for _, name := range []string{"forgotten", "rose", "fell", "new", "held"} {
		if total[name] == 0 {
			t.Errorf("no pair has a %s memory: the data no longer exercises the comparison", name)
		}
	}
}

// locomoDB imports the conversations of locomo10.json named in n into a
// new database through `memtrace import locomo`, pins its clock, and
// returns its path and the first n[sample id] questions of each.
func locomoDB(t *testing.T, n map[string]int) (string, []string) {
	t.Helper()
	raw, err := os.ReadFile(locomoPath)
	if err != nil {
		t.Fatalf("the LoCoMo acceptance test needs %s (the shared data directory next to the repository): %v", locomoPath, err)
	}
	var samples []json.RawMessage
	if err := json.Unmarshal(raw, &samples); err != nil {
		t.Fatal(err)
	}
	var subset []json.RawMessage
	var questions []string
	for _, s := range samples {
		var head struct {
			SampleID string `json:"sample_id"`
			QA       []struct {
				Question string `json:"question"`
			} `json:"qa"`
		}
		if err := json.Unmarshal(s, &head); err != nil {
			t.Fatal(err)
		}
		if n[head.SampleID] == 0 {
			continue
		}
		subset = append(subset, s)
		for _, qa := range head.QA[:min(n[head.SampleID], len(head.QA))] {
			questions = append(questions, qa.Question)
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "locomo-subset.json")
	b, _ := json.Marshal(subset)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "locomo.db")
	runCLI(t, "--db", db, "import", "locomo", in)
	runCLI(t, "--db", db, "clock", locomoClock)
	return db, questions
}

// compareJSON runs `memtrace compare --json` on db for query, from now to at.
func compareJSON(t *testing.T, db, query, at string) inspector.Comparison {
	t.Helper()
	out := runCLI(t, "--db", db, "compare", query, "--at-b", at, "--json")
	var c inspector.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("compare %q --at-b %s: not a comparison: %v\n%s", query, at, err, out)
	}
	return c
}

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Run(context.Background(), args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("memtrace %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}

func ids(cs []inspector.Change) []int64 {
	out := []int64{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	slices.Sort(out)
	return out
}
