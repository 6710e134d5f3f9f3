package ollama

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func TestEmbedder(t *testing.T) {
	ctx := context.Background()
	f := newFakeOllama(t)
	e := NewEmbedder(f.client(5*time.Second), "nomic-embed-text")
	if e.Name() != "ollama:nomic-embed-text" || e.Dim() != 0 {
		t.Fatalf("before use: %q dim %d", e.Name(), e.Dim())
	}
	vecs, err := e.Embed(ctx, []string{"충주 사과가 맛있었지", "the apple in Chungju was sweet"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 2 || len(vecs[0]) != 768 || e.Dim() != 768 {
		t.Fatalf("got %d vectors of %d, dim %d", len(vecs), len(vecs[0]), e.Dim())
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	json.Unmarshal(f.rawBodies("/api/embed")[0], &req)
	if req.Model != "nomic-embed-text" || len(req.Input) != 2 || req.Input[0] != "충주 사과가 맛있었지" {
		t.Fatalf("embed request = %+v", req)
	}
	// A count mismatch (one text, two vectors recorded) is an error, not a
	// silently misaligned index.
	if _, err := e.Embed(ctx, []string{"one"}); engine.ErrorCode(err) != engine.EUNAVAIL {
		t.Fatalf("mismatch err = %v", err)
	}
	_, err = NewEmbedder(f.client(5*time.Second), "mxbai-embed-large").Embed(ctx, []string{"a", "b"})
	if !strings.Contains(engine.ErrorMessage(err), "ollama pull mxbai-embed-large") {
		t.Fatalf("missing embed model: %v", err)
	}
}
