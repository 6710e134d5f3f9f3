package capture_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// A held capture offered again: a judge that fails keeps it held (the
// rules never decide in its place), a judge that answers decides it, and a
// decided item cannot be offered again.
func TestReofferHeldCapture(t *testing.T) {
	ctx := context.Background()
	held := openCaptureEngine(t, fakeJudge{v: engine.CaptureVerdict{NeedsReview: true, Reason: "bad label"}})
	msg := engine.Message{ID: "h1", Session: "s1", Role: "user", Text: "I am allergic to peanuts and carry an epinephrine pen.", At: testNow.Add(-time.Hour)}
	if r, err := capture.Capture(ctx, held, msg); err != nil || r.Outcome != engine.OutcomeHeld {
		t.Fatalf("capture: %+v, %v", r, err)
	}
	db := held.Store()
	reopen := func(j engine.Judge) *capture.Capturer {
		e, err := engine.Open(ctx, engine.Options{Store: db, Judge: j, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		c, err := capture.NewCapturer(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	items := func() []*engine.ReviewItem {
		its, _, err := db.FindReviews(ctx, engine.ReviewFilter{})
		if err != nil || len(its) != 1 {
			t.Fatalf("queue: %+v, %v", its, err)
		}
		return its
	}

	t.Run("JudgeErrorKeepsItHeld", func(t *testing.T) {
		_, rs, err := reopen(fakeJudge{err: errors.New("connection refused")}).Reoffer(ctx, items())
		if err != nil || rs[0].Outcome != engine.OutcomeHeld || !rs[0].JudgeError || rs[0].MemoryID != 0 {
			t.Fatalf("reoffer: %+v, %v", rs, err)
		}
		it := items()[0]
		if it.Status != engine.ReviewHeld || it.Attempts != 2 || it.Reason == "bad label" {
			t.Fatalf("item after a failed retry: %+v", it)
		}
	})
	t.Run("JudgeDecides", func(t *testing.T) {
		batch, rs, err := reopen(fakeJudge{v: engine.CaptureVerdict{Store: true, Kind: engine.KindFact, Type: "health", Importance: 0.9, Reason: "allergy"}}).Reoffer(ctx, items())
		if err != nil || rs[0].Outcome != engine.OutcomeStored || rs[0].MemoryID == 0 {
			t.Fatalf("reoffer: %+v, %v", rs, err)
		}
		it := items()[0]
		if it.Status != engine.ReviewStored || it.MemoryID != rs[0].MemoryID || it.Batch != batch || it.DecidedBy != "judge:fake" {
			t.Fatalf("item after the retry: %+v", it)
		}
		m, err := db.GetMemoryByKey(ctx, "h1")
		if err != nil || m.Type != "health" {
			t.Fatalf("memory: %+v, %v", m, err)
		}
		// Both offers are in the captures log.
		cs, n, err := db.FindCaptures(ctx, engine.CaptureFilter{})
		if err != nil || n != 3 || cs[2].Outcome != engine.OutcomeStored || cs[2].Trail[0].Layer != engine.LayerReview {
			t.Fatalf("captures: %d %+v, %v", n, cs, err)
		}
	})
	t.Run("ErrConflictWhenDecided", func(t *testing.T) {
		_, _, err := reopen(fakeJudge{}).Reoffer(ctx, items())
		if engine.ErrorCode(err) != engine.ECONFLICT {
			t.Fatalf("err = %v", err)
		}
	})
}
