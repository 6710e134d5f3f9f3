package cli

import (
	"path/filepath"
	"testing"
)

// An ingest on an Ollama embedder embeds its messages ahead in requests
// of up to 64 texts (Ollama's /api/embed takes an array), not one request
// per message, and stores exactly what a message-by-message ingest stores.
func TestIngestEmbedsInBatches(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	one := filepath.Join(t.TempDir(), "one.db")
	mustRun(t, "--db", one, "--embedder", "ollama:tiny-embed", "ingest", "--batch", "1", "testdata/demo.jsonl")
	perMessage, _ := srv.count()

	srv.mu.Lock()
	srv.embeds, srv.texts, srv.largest = 0, 0, 0
	srv.mu.Unlock()
	many := filepath.Join(t.TempDir(), "many.db")
	mustRun(t, "--db", many, "--embedder", "ollama:tiny-embed", "ingest", "testdata/demo.jsonl")
	batched, texts := srv.count()
	t.Logf("demo ingest: %d /api/embed requests one message per batch, %d batched (%d texts, at most %d in one)", perMessage, batched, texts, srv.largest)
	if srv.largest > 64 || srv.largest < 32 {
		t.Errorf("largest request carried %d texts, want the batch's messages in requests of up to 64", srv.largest)
	}
	if batched*3 > perMessage {
		t.Errorf("batched ingest made %d requests against %d message by message: not batched", batched, perMessage)
	}
	a, b := mustRun(t, "--db", one, "list", "--json", "--limit", "0"), mustRun(t, "--db", many, "list", "--json", "--limit", "0")
	if a != b {
		t.Errorf("batched ingest stored other memories than message by message:\n%s\n---\n%s", a, b)
	}
}
