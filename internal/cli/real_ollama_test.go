package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/ollama"
)

// The TestReal* tests run the commands against a real Ollama server (see
// internal/testdata/ollamatest: .ci/ollama.sh in CI, OLLAMA_HOST locally); without
// one they skip loudly, in CI they fail.

// realRun runs memtrace with args and returns stdout, stderr and the exit
// code.
func realRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// ingestedDemoDB ingests the demo conversation with the rules into a fresh DB.
func ingestedDemoDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "demo.db")
	if _, errs, code := realRun(t, "--db", db, "ingest", "testdata/demo.jsonl"); code != 0 {
		t.Fatalf("ingest the demo: exit %d: %s", code, errs)
	}
	return db
}

func TestRealJudgeCheck(t *testing.T) {
	chat := ollamatest.RealModel(t, ollamatest.ChatModel)
	embed := ollamatest.RealModel(t, ollamatest.EmbedModel)
	out, errs, code := realRun(t, "judge", "check", "--model", chat)
	if code != 0 || !strings.Contains(out, "ok: the judge is ready") || !strings.Contains(out, "chat     ") {
		t.Fatalf("judge check %s: exit %d\n%s%s", chat, code, out, errs)
	}
	t.Logf("%s", out)
	out, errs, code = realRun(t, "judge", "check", "--model", embed)
	if code != 1 || strings.Contains(out, "ready") || !strings.Contains(errs, "cannot judge: it has no completion capability (capabilities: embedding)") {
		t.Fatalf("judge check %s: exit %d, want a refusal\n%s%s", embed, code, out, errs)
	}
}

// listMemories is `list --json --limit 0` of db.
func listMemories(t *testing.T, db string) []map[string]any {
	t.Helper()
	out, errs, code := realRun(t, "--db", db, "list", "--json", "--limit", "0")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var r struct {
		Memories []map[string]any `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Memories
}

// TestRealTriageApproveRollback: triage of demo types with the real server
// completes, approving what it proposes applies it in one batch
// (`approve` applies; `apply --approved` is for what the Curate tab
// approved), and the rollback restores the memories exactly.
func TestRealTriageApproveRollback(t *testing.T) {
	chat := ollamatest.RealModel(t, ollamatest.ChatModel)
	db := ingestedDemoDB(t)
	before := listMemories(t, db)
	count := map[string]int{}
	for _, m := range before {
		count[m["type"].(string)]++
	}
	judged, review := 0, 0
	// Two of the demo's populations, to keep CI short (the needs_review
	// rate over every type is in the README).
	for _, typ := range []string{"milestone", "date"} {
		out, errs, code := realRun(t, "--db", db, "triage", "--type", typ, "--model", chat, "--sample", "0", "--json")
		if code != 0 {
			t.Fatalf("triage --type %s: exit %d: %s", typ, code, errs)
		}
		var rep curate.TriageReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		judged += rep.Judged
		review += rep.NeedsReview
	}
	t.Logf("triage of the demo types with %s: %d judged, %d needs_review", chat, judged, review)
	if judged != count["milestone"]+count["date"] || judged == 0 {
		t.Fatalf("judged %d of %d memories", judged, count["milestone"]+count["date"])
	}
	out, errs, code := realRun(t, "--db", db, "approve", "--all-pending", "--json")
	if code != 0 {
		t.Fatalf("approve: exit %d: %s", code, errs)
	}
	var ap struct {
		Batch   string `json:"batch"`
		Applied int    `json:"applied"`
	}
	if err := json.Unmarshal([]byte(out), &ap); err != nil || ap.Batch == "" || ap.Applied == 0 {
		t.Fatalf("approve: %v: %s", err, out)
	}
	if changed, _ := json.Marshal(listMemories(t, db)); bytes.Equal(changed, mustJSON(t, before)) {
		t.Fatalf("approving %d proposals changed no memory", ap.Applied)
	}
	// approve applies what it approves, in one batch: nothing is left for
	// apply --approved.
	out, errs, code = realRun(t, "--db", db, "rollback", ap.Batch, "--yes", "--force", "--json")
	if code != 0 {
		t.Fatalf("rollback: exit %d: %s", code, errs)
	}
	after := listMemories(t, db)
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	if !bytes.Equal(b1, b2) {
		t.Fatalf("rollback of %s (%d applied) did not restore the memories:\nbefore %s\nafter  %s", ap.Batch, ap.Applied, b1, b2)
	}
}

// TestRealIngestJudgeLabels: with the enum schema no memory is stored with
// a type outside the allowed labels.
func TestRealIngestJudgeLabels(t *testing.T) {
	chat := ollamatest.RealModel(t, ollamatest.ChatModel)
	db := filepath.Join(t.TempDir(), "judged.db")
	out, errs, code := realRun(t, "--db", db, "ingest", "--judge", chat, "--json", "testdata/demo.jsonl")
	if code != 0 {
		t.Fatalf("ingest --judge: exit %d: %s", code, errs)
	}
	t.Logf("ingest --judge %s: %s", chat, strings.TrimSpace(out))
	for _, m := range listMemories(t, db) {
		if typ := m["type"].(string); !slices.Contains(ollama.DefaultTypes, typ) {
			t.Errorf("memory %v stored with type %q, not an allowed label", m["id"], typ)
		}
	}
}

// TestRealHeartbeatReview: the reviewer runs on the real server and the
// heartbeat completes, with the repeat-prone model too (its reviews are
// needs_review, the proposals still written).
func TestRealHeartbeatReview(t *testing.T) {
	chat := ollamatest.RealModel(t, ollamatest.ChatModel)
	repeat := ollamatest.RealModel(t, ollamatest.RepeatModel)
	for _, model := range []string{chat, repeat} {
		db := ingestedDemoDB(t)
		out, errs, code := realRun(t, "--db", db, "heartbeat", "--review", "--model", model, "--json")
		if code != 0 {
			t.Fatalf("heartbeat --review --model %s: exit %d: %s", model, code, errs)
		}
		var rep struct {
			Proposals []struct {
				Kind   string `json:"kind"`
				Status string `json:"status"`
				Reason string `json:"reason"`
			} `json:"proposals"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		promotes, held := 0, 0
		for _, p := range rep.Proposals {
			if p.Kind == engine.ProposalPromote {
				promotes++
				if p.Status == engine.ProposalReview {
					held++
				}
			}
		}
		t.Logf("heartbeat --review --model %s: %d proposals, %d promote, %d held for review", model, len(rep.Proposals), promotes, held)
		if promotes == 0 {
			t.Fatalf("no promote proposal reviewed: %s", out)
		}
		if model == repeat && held != promotes {
			t.Fatalf("the repeat-prone model's reviews should all be needs_review: %s", out)
		}
	}
}

// TestRealTriageRepeatingModel: the repeat-prone model's streams end
// without done; triage completes with needs_review items and says once,
// loudly, that the judge was stopped.
func TestRealTriageRepeatingModel(t *testing.T) {
	repeat := ollamatest.RealModel(t, ollamatest.RepeatModel)
	db := ingestedDemoDB(t)
	out, errs, code := realRun(t, "--db", db, "triage", "--type", "note", "--model", repeat, "--sample", "0", "--json")
	if code != 0 {
		t.Fatalf("triage with %s: exit %d: %s", repeat, code, errs)
	}
	var rep curate.TriageReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Judged == 0 || rep.NeedsReview != rep.Judged {
		t.Fatalf("report %+v: want every item needs_review", rep)
	}
	if rep.Judged > ollama.DefaultBreakAfter && strings.Count(errs, "WARNING: judge stopped") != 1 {
		t.Fatalf("want one loud breaker notice, stderr:\n%s", errs)
	}
	t.Logf("triage --type note with %s: %d judged, %d needs_review; %s", repeat, rep.Judged, rep.NeedsReview, strings.TrimSpace(errs))
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
