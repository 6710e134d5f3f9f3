package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A statement captured while the Ollama server is away is not lost: it
// waits in the review queue with the reason embedder_unavailable, and
// `review retry` stores it once the server is back.
func TestCaptureWhileEmbedderAwayIsQueuedAndRetried(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "--db", db, "--embedder", "ollama:tiny-embed", "add", "I grow apples in Chungju every autumn.")

	in := filepath.Join(t.TempDir(), "in.jsonl")
	line := `{"id":"o1","session":"s1","role":"user","text":"My daughter Minji starts school in Busan next March.","at":"2026-03-01T09:00:00Z"}` + "\n"
	if err := os.WriteFile(in, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--db", db, "ingest", in}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("ingest with the server away: exit %d\n%s%s", code, out.String(), errb.String())
	}
	q := mustRun(t, "--db", db, "review", "list", "--json")
	if !strings.Contains(q, "embedder_unavailable") || !strings.Contains(q, "Minji") {
		t.Fatalf("review queue with the server away:\n%s", q)
	}
	if l := mustRun(t, "--db", db, "list"); strings.Contains(l, "Minji") {
		t.Fatalf("stored without a vector:\n%s", l)
	}

	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	r := mustRun(t, "--db", db, "review", "retry", "--all")
	t.Logf("retry:\n%s", r)
	if l := mustRun(t, "--db", db, "list"); !strings.Contains(l, "Minji") {
		t.Fatalf("not stored after the retry:\n%s\nretry said:\n%s", l, r)
	}
}
