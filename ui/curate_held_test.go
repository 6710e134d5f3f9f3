package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// holdingJudge answers like a judge whose answers never validate.
type holdingJudge struct{}

func (holdingJudge) Name() string { return "holding" }
func (holdingJudge) JudgeCapture(context.Context, engine.CaptureInput) (engine.CaptureVerdict, error) {
	return engine.CaptureVerdict{NeedsReview: true, Reason: `"type" is not one of the labels`}, nil
}

// The Curate tab's review queue shows the captures the judge held, with
// why; the curator stores one by hand and skips another, each in its own
// batch. The Captures tab lists the held ones with the same reason.
func TestCurateHeldCaptures(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return testNow }
	db := storetest.MustOpenClock(t, now)
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: now, Judge: holdingJudge{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture.CaptureBatch(ctx, e, []engine.Message{
		{ID: "h1", Session: "s", Role: "user", Text: "충주에서 먹은 사과가 정말 맛있었어요, 다음 가을에도 가고 싶어요.", At: testNow.Add(-2 * time.Hour)},
		{ID: "h2", Session: "s", Role: "user", Text: "I think the weather was fine yesterday, nothing special happened.", At: testNow.Add(-time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	m := startModel(t, Deps{Engine: e, Store: db, Now: now, NoColor: true}, 160, 32)
	m = goTo(t, m, "Curate")
	if s := screen(m); !strings.Contains(s, "2 held captures (v)") {
		t.Fatalf("the queue header does not point at the held captures:\n%s", s)
	}
	m = drive(t, m, press("v"))
	s := screen(m)
	if !strings.Contains(s, "HELD CAPTURES 2") || !strings.Contains(s, "충주에서") || !strings.Contains(s, `why held: "type" is not one of the labels`) {
		t.Fatalf("held view:\n%s", s)
	}
	// a → the label chooser opens on "note"; one up is "correction".
	m = drive(t, m, press("a"), press("up"), press("enter"))
	if c := m.curate(); c.err != "" || !strings.Contains(c.status, "stored as memory") {
		t.Fatalf("store: status %q err %q", c.status, c.err)
	}
	mem, ok := e.MemoryByKey("h1")
	if !ok || mem.Type != "correction" || !strings.Contains(mem.Content, "충주") {
		t.Fatalf("h1 memory = %+v, %v", mem, ok)
	}
	if s := screen(m); !strings.Contains(s, "HELD CAPTURES 1") {
		t.Fatalf("after store:\n%s", s)
	}
	m = drive(t, m, press("x"), press("y"))
	if c := m.curate(); c.err != "" || !strings.Contains(c.status, "skipped in batch review-skip-") {
		t.Fatalf("skip: status %q err %q", c.status, c.err)
	}
	items, _, err := db.FindReviews(ctx, engine.ReviewFilter{})
	if err != nil || len(items) != 2 || items[0].Status != engine.ReviewStored || items[1].Status != engine.ReviewSkipped || items[0].Batch == items[1].Batch {
		t.Fatalf("queue after decisions: %+v, %v", items, err)
	}
	if _, ok := e.MemoryByKey("h2"); ok {
		t.Fatal("a skipped capture became a memory")
	}

	// Captures: cycle the layer filter to held.
	m = goTo(t, m, "Captures")
	for range 7 {
		m = drive(t, m, press("l"))
	}
	s = screen(m)
	if !strings.Contains(s, "held") || !strings.Contains(s, "needs_review: \"type\" is not") || !strings.Contains(s, "I think the weather") {
		t.Fatalf("captures filtered to held:\n%s", s)
	}
}
