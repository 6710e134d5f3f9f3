package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/policy"
	"memtrace/recall"
	"memtrace/store"
)

func writePolicy(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func policyBatch(t *testing.T, db string) string {
	t.Helper()
	var out policyShowOutput
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "policy", "show", "--json")), &out); err != nil {
		t.Fatal(err)
	}
	return out.Batch
}

// policy set twice, then rollback twice: each rollback restores the text
// recorded before exactly (the first: no policy at all), and the older
// batch cannot be rolled back while the newer one stands.
func TestPolicySetRollbackRestoresExactly(t *testing.T) {
	db := demoDB(t)
	if v := setting(t, db, curate.SettingPolicy); v != "" {
		t.Fatalf("a new database records a policy: %q", v)
	}
	a := writePolicy(t, "forgetting:\n  half_life_episode: 3d\n")
	b := writePolicy(t, "# 한국어 주석\nrecall:\n  k: 5\ncapture:\n  dedupe_similarity: 0.95\n")
	out := mustRunCLI(t, "--db", db, "policy", "set", a)
	if !strings.Contains(out, "forgetting.half_life_episode   14d → 3d  (recall-time)") {
		t.Fatalf("plan:\n%s", out)
	}
	batchA, textA := policyBatch(t, db), setting(t, db, curate.SettingPolicy)
	out = mustRunCLI(t, "--db", db, "policy", "set", b)
	if !strings.Contains(out, "NEW captures only") || !strings.Contains(out, "recall.k") {
		t.Fatalf("plan of b does not say what capture-time keys will not change:\n%s", out)
	}
	batchB := policyBatch(t, db)
	if _, stderr, code := runCLI(t, "--db", db, "rollback", batchA, "--yes"); code == 0 || !strings.Contains(stderr, batchB) {
		t.Fatalf("rollback of %s under %s: exit %d %s", batchA, batchB, code, stderr)
	}
	mustRunCLI(t, "--db", db, "rollback", batchB, "--yes")
	if got := setting(t, db, curate.SettingPolicy); got != textA {
		t.Fatalf("after rollback of b: %q, want %q", got, textA)
	}
	mustRunCLI(t, "--db", db, "rollback", batchA, "--yes")
	if got := setting(t, db, curate.SettingPolicy); got != "" {
		t.Fatalf("after rollback of a: %q, want no policy", got)
	}
	if !strings.Contains(mustRunCLI(t, "--db", db, "policy", "show"), "the documented defaults") {
		t.Fatal("show after both rollbacks")
	}
	if _, _, code := runCLI(t, "--db", db, "rollback", batchA, "--yes"); code == 0 {
		t.Fatal("a second rollback succeeded")
	}
}

// allChanged is a policy in which every tunable differs from its default.
func allChanged(t *testing.T) engine.Config {
	c := engine.DefaultConfig()
	for k, v := range map[string]string{
		"capture.detail": "high", "capture.dedupe_similarity": "0.9", "capture.gate_similarity": "0.45",
		"forgetting.half_life_fact": "90d", "forgetting.half_life_episode": "4d", "forgetting.threshold": "0.08",
		"association.threshold": "0.3", "association.boost": "0.4", "association.boost_half_life": "3d",
		"recall.k": "4", "recall.budget": "900", "recall.candidate_pool": "20", "recall.mmr_lambda": "0.5",
		"recall.guaranteed_cap": "1", "recall.guaranteed_gate": "0.3", "recall.trace_keep": "50",
		"recall.time_cue_boost": "3", "rerank.w_lexical_hashed": "0.2", "rerank.w_lexical_semantic": "0.9",
		"rerank.relevance_floor": "0.5", "gate.min_idf_share": "0.6", "gate.vector_only_cosine": "0.05",
		"retention.beta_now": "0.01", "retention.beta_neutral": "1", "retention.beta_past": "1",
		"recognition.span": "1", "recognition.cue": "0.9", "recognition.cue_now": "0.05",
		"expansion.concept": "1", "expansion.synonym": "1", "expansion.hyponym": "1",
		"expansion.hyponym2": "1", "expansion.two_hop": "1",
	} {
		if err := policy.Set(&c, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(policy.Diff(engine.DefaultConfig(), c)); n != len(policy.Keys()) {
		t.Fatalf("only %d of %d keys changed", n, len(policy.Keys()))
	}
	return c
}

// Recall under a recorded policy equals recall with the same values given
// to the engine directly, over every tunable; and differs from the
// defaults' (so the comparison can fail).
func TestRecallUnderPolicyEqualsCompiledIn(t *testing.T) {
	db := demoDB(t)
	cfg := allChanged(t)
	mustRunCLI(t, "--db", db, "policy", "set", writePolicy(t, string(policy.Encode(cfg))))
	eng, _, closeDB, err := openEngineAt(context.Background(), db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	if eng.Config() != cfg {
		t.Fatalf("engine opened with %+v, want the recorded %+v", eng.Config(), cfg)
	}
	st, err := store.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	direct, err := engine.Open(context.Background(), engine.Options{Store: st, Now: st.Now, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	deflt, err := engine.Open(context.Background(), engine.Options{Store: st, Now: st.Now})
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for _, text := range []string{"what do I drink in the morning", "충주 여행 기억나?", "which editor do I use", "내 고양이 이름"} {
		at := eng.Now().Add(20 * 24 * time.Hour)
		got, want, def := recallOf(t, eng, text, at), recallOf(t, direct, text, at), recallOf(t, deflt, text, at)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q under the policy:\n%v\ncompiled in:\n%v", text, got, want)
		}
		differs = differs || !reflect.DeepEqual(got, def)
	}
	if !differs {
		t.Error("the policy changed no recall: the comparison proves nothing")
	}
}

func recallOf(t *testing.T, e *engine.Engine, text string, at time.Time) []string {
	t.Helper()
	tr, err := recall.Recall(context.Background(), e, engine.Query{Text: text, At: at, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range tr.Survivors {
		b, _ := json.Marshal(s)
		out = append(out, string(b))
	}
	return append(out, tr.Prompt)
}

func TestPolicyDiffAndStrictErrors(t *testing.T) {
	db := demoDB(t)
	a := writePolicy(t, "recall:\n  k: 8\n")
	b := writePolicy(t, "recall:\n  k: 3\n  mmr_lambda: 0.6\n")
	out := mustRunCLI(t, "--db", db, "policy", "diff", a, "db")
	if !strings.Contains(out, "the same") {
		t.Fatalf("defaults vs db: %s", out)
	}
	out = mustRunCLI(t, "--db", db, "policy", "diff", a, b)
	if !strings.Contains(out, "recall.k") || !strings.Contains(out, "8 → 3") || !strings.Contains(out, "recall.mmr_lambda") {
		t.Fatalf("diff: %s", out)
	}
	bad := writePolicy(t, "recall:\n  k: 3\n  lambda: 0.6\n")
	_, stderr, code := runCLI(t, "--db", db, "policy", "set", bad)
	if code == 0 || !strings.Contains(stderr, "line 3") || !strings.Contains(stderr, "valid keys: capture.detail") {
		t.Fatalf("bad key: exit %d %s", code, stderr)
	}
	if v := setting(t, db, curate.SettingPolicy); v != "" {
		t.Fatalf("a refused policy was recorded: %q", v)
	}
}
