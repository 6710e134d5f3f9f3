package capture_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// switchEmbedder is the hashed embedder behind a switch: off, it answers
// like an Ollama server that has gone away (EUNAVAIL). A fake, since a
// real server cannot be turned off and on inside one engine cheaply.
type switchEmbedder struct {
	engine.Embedder
	down atomic.Bool
}

func (s *switchEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if s.down.Load() {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot reach Ollama at http://127.0.0.1:1: connection refused")
	}
	return s.Embedder.Embed(ctx, texts)
}

// Captured while the embedder is away, a statement is held in the review
// queue (not an error, nothing lost); the first capture after it is back
// stores it too.
func TestCaptureHoldsWhileEmbedderAwayAndRetriesWhenBack(t *testing.T) {
	ctx := context.Background()
	emb := &switchEmbedder{Embedder: engine.NewHashed(engine.HashedDim)}
	db := openCaptureEngine(t, nil).Store()
	e, err := engine.Open(ctx, engine.Options{Store: db, Embedder: emb, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	emb.down.Store(true)
	msg := engine.Message{ID: "away-1", Session: "s1", Role: "user", Text: "My daughter Minji starts school in Busan next March.", At: testNow}
	r, err := capture.Capture(ctx, e, msg)
	if err != nil {
		t.Fatalf("capture with the embedder away: %v", err)
	}
	if r.Outcome != engine.OutcomeHeld {
		t.Fatalf("outcome %q, want held; trail %+v", r.Outcome, r.Trail)
	}
	items, _, err := db.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
	if err != nil || len(items) != 1 || !strings.HasPrefix(items[0].Reason, capture.ReasonEmbedderUnavailable) {
		t.Fatalf("review queue: %v %+v", err, items)
	}

	emb.down.Store(false)
	r2, err := capture.Capture(ctx, e, engine.Message{ID: "back-1", Session: "s1", Role: "user", Text: "I keep bees on the roof of our house in Chungju.", At: testNow})
	if err != nil || r2.Outcome != engine.OutcomeStored {
		t.Fatalf("capture once back: %v %+v", err, r2)
	}
	held, _, err := db.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
	if err != nil || len(held) != 0 {
		t.Fatalf("still held after the embedder came back: %v %+v", err, held)
	}
	ms, _, err := db.FindMemories(ctx, engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range ms {
		found = found || strings.Contains(m.Content, "Minji")
	}
	if !found {
		t.Fatal("the held statement was not stored once the embedder was back")
	}
}
