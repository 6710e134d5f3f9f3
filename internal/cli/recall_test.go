package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

// recallTestDB writes a small database: the Chungju apples, a HOT milestone
// and an old episode.
func recallTestDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 3, 28, 17, 0, 0, 0, time.UTC)
	for _, m := range []engine.Memory{
		{Key: "m0216", Content: "충주 사과가 정말 달고 맛있었어. 아삭하고 과즙이 많아서 깜짝 놀랐어.", Importance: 0.5, CreatedAt: base},
		{Key: "m0218", Content: "그래서 엄마 드리려고 충주 사과 한 박스 샀어.", Importance: 0.5, CreatedAt: base.Add(3 * time.Minute)},
		{Key: "m0369", Content: "오늘 수진이랑 처음 만난 지 10주년이라 기념으로 반지 선물했어.", Type: "milestone", Importance: 1,
			Tier: engine.TierHot, CreatedAt: base.Add(-recallDay)},
		{Key: "m0222", Content: "오늘 점심은 회사 근처에서 충주 사과 주스랑 김치찌개 먹었어.", Kind: engine.KindEpisode, Type: "episode",
			Importance: 0.4, CreatedAt: base},
	} {
		if err := eng.AddMemory(ctx, &m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

const recallDay = 24 * time.Hour

func runRecallCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

var tookMS = regexp.MustCompile(`"took_ms": [0-9.e+-]+`)

func TestRecallJSONIsStableAcrossRuns(t *testing.T) {
	db := recallTestDB(t)
	args := []string{"--db", db, "recall", "충주 시에 충주 사과가 맛있었지?", "--at", "2026-04-01T09:00:00Z", "--json"}
	a, stderr, code := runRecallCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _, _ := runRecallCLI(t, args...)
	if tookMS.ReplaceAllString(a, "") != tookMS.ReplaceAllString(b, "") {
		t.Error("recall --json differs between two runs on the same DB, query and --at")
	}
	var tr engine.Trace
	if err := json.Unmarshal([]byte(a), &tr); err != nil {
		t.Fatalf("not a trace document: %v", err)
	}
	if len(tr.Stages) != len(engine.StageNames) || tr.Stages[10].Name != "budget" {
		t.Errorf("stages: %d, last %q", len(tr.Stages), tr.Stages[len(tr.Stages)-1].Name)
	}
	if len(tr.Survivors) == 0 || tr.Survivors[0].Key != "m0216" || !tr.ReadOnly {
		t.Errorf("survivors %+v read_only %v", tr.Survivors, tr.ReadOnly)
	}
}

func TestRecallTraceTableAndTimeOverride(t *testing.T) {
	db := recallTestDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "2026-04-01T09:00:00Z", "--trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range engine.StageNames {
		if !regexp.MustCompile(`(?m)^\d+\s+` + name + `\s+\d+\s+\d+`).MatchString(out) {
			t.Errorf("stage table lacks a row for %s:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "below_gate × 1") || !strings.Contains(out, "<memories") {
		t.Errorf("trace output lacks the gate drop or the prompt:\n%s", out)
	}
	// 120 days on, the episode (importance 0.4) has dropped out of free
	// recall, but "충주 사과" is all its own words say of the query
	// (cue_score 1): the temporal row shows it kept by recognition, and it
	// survives with the facts.
	later, _, _ := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "2026-07-30T09:00:00Z", "--trace")
	if !regexp.MustCompile(`(?m)^4\s+temporal\s+4\s+4\s+\(kept: recognised × 1\)$`).MatchString(later) ||
		strings.Contains(later, "forgotten ×") || !strings.Contains(later, "김치찌개") || !strings.Contains(later, "충주 사과가 정말") {
		t.Errorf("at +120d:\n%s", later)
	}
	js, _, _ := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "2026-07-30T09:00:00Z", "--json")
	var tr engine.Trace
	if err := json.Unmarshal([]byte(js), &tr); err != nil {
		t.Fatal(err)
	}
	st := tr.Stage("temporal")
	found := false
	for _, it := range st.Items {
		found = found || it.Key == "m0222"
		if it.Key == "m0222" && (it.Dropped != "" || !it.Recognised || it.Scores["cue_score"] != 1 ||
			!strings.Contains(st.Notes["recognised"], fmt.Sprintf("id %d: recognised (forgotten in free recall on", it.ID))) {
			t.Errorf("m0222 at +120d: dropped %q, recognised %v, cue_score %v, notes %q", it.Dropped, it.Recognised, it.Scores["cue_score"], st.Notes["recognised"])
		}
	}
	if !found {
		t.Error("m0222 did not reach the temporal stage at +120d")
	}
	// Before the apples were written about, the temporal row counts them by
	// kind — the timestamp in the reason's prose does not split the count.
	early, _, _ := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "2026-03-01T00:00:00Z", "--trace")
	if !regexp.MustCompile(`(?m)^4\s+temporal\s+\d+\s+\d+\s+not_yet_created × \d+$`).MatchString(early) || strings.Contains(early, "2026-03-01T00 ×") {
		t.Errorf("at 2026-03-01:\n%s", early)
	}
}

func TestRecallArgumentErrors(t *testing.T) {
	db := recallTestDB(t)
	for _, args := range [][]string{
		{"--db", db, "recall"},
		{"--db", db, "recall", "x", "--at", "+30x"},
		{"--db", db, "recall", "x", "--trace", "--json"},
	} {
		if _, stderr, code := runRecallCLI(t, args...); code != 2 || !strings.Contains(stderr, "usage: memtrace recall") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	_, stderr, code := runRecallCLI(t, "--db", filepath.Join(t.TempDir(), "none.db"), "recall", "x")
	if code != 1 || !strings.Contains(stderr, "memtrace demo") {
		t.Errorf("missing DB: exit %d, %q", code, stderr)
	}
}

func TestHelpTopics(t *testing.T) {
	out, _, code := runRecallCLI(t, "help", "decay")
	if code != 0 || out != engine.DecayHelp {
		t.Errorf("help decay: exit %d\n%s", code, out)
	}
	out, _, _ = runRecallCLI(t, "help")
	if !strings.Contains(out, "usage: memtrace") || !strings.Contains(out, "recall TEXT") {
		t.Errorf("help without a topic does not list commands:\n%s", out)
	}
	out, _, _ = runRecallCLI(t, "help", "stages")
	for _, name := range engine.StageNames {
		if !strings.Contains(out, name) {
			t.Errorf("help stages lacks %s", name)
		}
	}
	if _, _, code := runRecallCLI(t, "help", "nonsense"); code != 2 {
		t.Errorf("help nonsense: exit %d, want 2", code)
	}
}
