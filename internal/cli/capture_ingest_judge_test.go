package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
)

// ingest --judge puts the Ollama judge in L3: what passes L1/L2 is decided
// by the model's validated answer, and the noise never reaches it.
func TestIngestWithOllamaJudge(t *testing.T) {
	srv := ollamatest.New(t, func(text string) string {
		if strings.Contains(text, "lunch") {
			return "chat_capture_skip.ndjson"
		}
		return "chat_capture_store.ndjson"
	})
	t.Setenv("OLLAMA_HOST", srv.URL().String())
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	lines := []string{
		`{"id":"j1","session":"s1","role":"user","text":"I am allergic to peanuts, so never suggest satay or peanut sauce.","at":"2026-03-01T09:00:00Z"}`,
		`{"id":"j2","session":"s1","role":"assistant","text":"HEARTBEAT_OK","at":"2026-03-01T09:01:00Z"}`,
		`{"id":"j3","session":"s1","role":"user","text":"Had a sandwich for lunch at the usual place near the office today.","at":"2026-03-01T12:00:00Z"}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--db", db, "ingest", "--judge", ollamatest.Model, "--json", in}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var st engine.IngestStats
	if err := json.Unmarshal(out.Bytes(), &st); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if st.Offered != 3 || st.Stored != 1 || st.Dropped[engine.LayerL1]+st.Dropped[engine.LayerL2] != 1 || st.Dropped[engine.LayerJudge] != 1 {
		t.Fatalf("stats %+v", st)
	}
	if srv.Chats() != 2 {
		t.Errorf("the judge was asked %d times, want 2 (the heartbeat must never reach it)", srv.Chats())
	}
	out.Reset()
	if code := run(context.Background(), []string{"--db", db, "show", "key:j1", "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("show: %s", errb.String())
	}
	if !strings.Contains(out.String(), "peanuts") {
		t.Fatalf("the judged memory is missing: %s", out.String())
	}
}

func TestIngestJudgeUnreachableSaysWhatToDo(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
	db := filepath.Join(t.TempDir(), "m.db")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--db", db, "ingest", "--judge", "qwen2.5:0.5b", "-"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "ollama serve") || !strings.Contains(errb.String(), "qwen2.5:0.5b") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed judge check created the database")
	}
}
