package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
)

// Against the real Ollama server (CI builds it and the tiny models; see
// internal/testdata/ollamatest.Real). Without OLLAMA_HOST these skip, loudly; in CI
// they must run.

// reembed moves the demo database to the real embedding model, and recall
// then embeds its queries with it.
func TestRealOllamaReembed(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.EmbedModel)
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "demo", "--no-tui", "--db", db)
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--db", db, "reembed", "--embedder", "ollama:" + model, "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("reembed: exit %d %s", code, errb.String())
	}
	st := decodeJSON[ReembedStats](t, out.String())
	name := "ollama:" + canonicalModel(model)
	if st.Embedder != name || st.Dim <= 0 || st.Embedded != st.Memories || st.Memories == 0 {
		t.Fatalf("reembed: %+v", st)
	}
	t.Logf("real %s: %d memories, %d dimensions", name, st.Memories, st.Dim)
	if got := embedders(t, db); got[name] != st.Memories {
		t.Fatalf("vectors: %v", got)
	}
	rec := mustRun(t, "--db", db, "recall", "충주 사과", "--json")
	if !strings.Contains(rec, name) {
		t.Fatalf("recall did not use %s", name)
	}
	// Another embedder asked for while the vectors are the embed model's is
	// refused by a command that embeds (a store-only command such as list
	// opens no engine and embeds nothing, so it has nothing to refuse).
	out.Reset()
	errb.Reset()
	if code := run(context.Background(), []string{"--db", db, "--embedder", "hashed", "recall", "충주 사과"}, strings.NewReader(""), &out, &errb); code != 1 || !strings.Contains(errb.String(), "memtrace reembed --embedder hashed") {
		t.Fatalf("mismatch: exit %d %q", code, errb.String())
	}
}

// A message held during `ingest --judge` (the replayed fake's invalid
// answers) is offered to the real server's chat model by `review retry`:
// the answer is schema-shaped, so the item is decided or held again with
// the reason — never lost, never an error.
func TestRealOllamaReviewRetry(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.ChatModel)
	realHost := os.Getenv("OLLAMA_HOST")
	fake := ollamatest.New(t, func(string) string { return "chat_capture_invalid.ndjson" })
	t.Setenv("OLLAMA_HOST", fake.URL().String())
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(`{"id":"q1","session":"s1","role":"user","text":"I am allergic to peanuts, so never suggest satay or peanut sauce.","at":"2026-03-01T09:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	st := decodeJSON[engine.IngestStats](t, mustRun(t, "--db", db, "ingest", "--judge", ollamatest.Model, "--json", in))
	if st.NeedsReview != 1 {
		t.Fatalf("ingest: %+v", st)
	}
	t.Setenv("OLLAMA_HOST", realHost)
	rs := decodeJSON[ReviewRetryStats](t, mustRun(t, "--db", db, "review", "retry", "--all", "--judge", model, "--json"))
	if rs.Offered != 1 || rs.JudgeErrors != 0 || len(rs.Items) != 1 {
		t.Fatalf("retry: %+v", rs)
	}
	it := rs.Items[0]
	t.Logf("real %s on the held item: %s (%s%s)", model, it.Status, it.Note, it.Reason)
	switch it.Status {
	case engine.ReviewStored, engine.ReviewReinforced:
		if it.MemoryID == 0 {
			t.Fatalf("stored without a memory: %+v", it)
		}
	case engine.ReviewDropped:
		if it.Note == "" {
			t.Fatalf("dropped without a reason: %+v", it)
		}
	case engine.ReviewHeld:
		if it.Attempts != 2 || it.Reason == "" {
			t.Fatalf("held again without the reason: %+v", it)
		}
	default:
		t.Fatalf("status %q", it.Status)
	}
}
