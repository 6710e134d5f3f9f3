package capture_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/recall"
)

// captureAt captures one user message at a time and returns its result.
func captureAt(t *testing.T, e *engine.Engine, id, text string, at time.Time) *engine.CaptureResult {
	t.Helper()
	r, err := capture.Capture(context.Background(), e, engine.Message{ID: id, Session: "s-" + id, Role: "user", Text: text, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != engine.OutcomeStored {
		t.Fatalf("%s %q: outcome %s (%s), want stored; trail %+v", id, text, r.Outcome, r.Reason, r.Trail)
	}
	return r
}

func onDay(n int) time.Time { return time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, n) }

// TestSupersessionRule: an update supersedes the old fact about the same
// subject (EN and KO); the near-misses of the issue supersede nothing.
func TestSupersessionRule(t *testing.T) {
	cases := []struct {
		name, old, update string
		want              bool
	}{
		{"employer", "I work at Naver on the search team.", "I joined Kakao last month as a backend engineer.", true},
		{"ci", "Our CI runs on Jenkins with a nightly build.", "We moved CI to GitHub Actions this week.", true},
		{"phone-ko", "내 핸드폰은 갤럭시 S21이야.", "아이폰 15로 바꿨어, 카메라가 훨씬 좋아.", true},
		{"school", "Hana is in kindergarten at Sunflower, the one near our flat.", "Hana started first grade at Maple Elementary this March.", true},
		{"car-ko", "나는 2015년식 아반떼를 타고 다녀, 내 차는 회색이야.", "차를 테슬라 모델 3로 바꿨어.", true},
		{"home", "I live in Seoul, near Mapo.", "I moved to Busan in April.", true},
		{"second-car", "I drive a 2015 Avante to work.", "We bought a second car for my wife, a new Kia Ray she drives now.", false},
		{"also-postgres", "Our main database is MySQL 8.", "I now also use Postgres for analytics.", false},
		{"hypothetical", "I live in Seoul, near Mapo.", "If I moved to Jeju, I would surf every day.", false},
		{"question", "I write the backend in Go.", "Did you switch to Rust for the backend of the Kestrel service?", false},
		{"other-subject", "I live in Seoul, near Mapo.", "I now use a standing desk at work.", false},
		{"other-person", "Hana is in kindergarten at Sunflower, the one near our flat.", "Minjun started first grade at Maple Elementary this spring.", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			old := captureAt(t, e, tc.name+"-old", tc.old, onDay(0))
			up, err := capture.Capture(context.Background(), e, engine.Message{ID: tc.name + "-new", Session: "s-new", Role: "user", Text: tc.update, At: onDay(90)})
			if err != nil {
				t.Fatal(err)
			}
			if up.Outcome != engine.OutcomeStored && tc.want {
				t.Fatalf("update not stored: %s %s", up.Outcome, up.Reason)
			}
			m, _ := e.Memory(old.MemoryID)
			if got := m.SupersededBy != 0 && m.SupersededBy == up.MemoryID; got != tc.want {
				t.Fatalf("superseded = %v, want %v; new trail %+v", got, tc.want, up.Trail)
			}
			if !tc.want {
				if len(up.Supersedes) != 0 || m.SupersededBy != 0 {
					t.Fatalf("near-miss superseded %+v", up.Supersedes)
				}
				return
			}
			if len(up.Supersedes) != 1 || up.Supersedes[0].ID != old.MemoryID {
				t.Fatalf("result supersedes %+v, want #%d", up.Supersedes, old.MemoryID)
			}
			if !m.ValidTo.Equal(onDay(90)) || m.Status != engine.StatusActive {
				t.Fatalf("old memory after: valid_to %v status %s", m.ValidTo, m.Status)
			}
			var found bool
			for _, d := range up.Trail {
				if d.Layer == engine.LayerSupersede && d.Verdict == "supersede" && strings.Contains(d.Reason, "same subject") {
					found = true
				}
			}
			if !found {
				t.Fatalf("trail does not say what was superseded: %+v", up.Trail)
			}
			if got := e.Supersedes(up.MemoryID); len(got) != 1 || got[0] != old.MemoryID {
				t.Fatalf("Supersedes(%d) = %v", up.MemoryID, got)
			}
		})
	}
}

// TestRecallRespectsSupersession: after the update the old fact is dropped
// at exclude (drop_kind superseded); a past-tense query recalls it labelled
// former with its validity in the prompt; before the update it is current
// and the new one does not exist yet.
func TestRecallRespectsSupersession(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	old := captureAt(t, e, "home-old", "I live in Seoul, near Mapo.", onDay(0))
	up := captureAt(t, e, "home-new", "I moved to Busan in April and live near Haeundae beach.", onDay(92))

	survives := func(tr *engine.Trace, id int64) *engine.Survivor {
		for i := range tr.Survivors {
			if tr.Survivors[i].ID == id {
				return &tr.Survivors[i]
			}
		}
		return nil
	}
	after, err := recall.Recall(ctx, e, engine.Query{Text: "where do I live", At: onDay(120), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if survives(after, old.MemoryID) != nil || survives(after, up.MemoryID) == nil {
		t.Fatalf("after the update: survivors %+v, want #%d only", after.Survivors, up.MemoryID)
	}
	var kind engine.DropKind
	for _, it := range after.Stage("exclude").Items {
		if it.ID == old.MemoryID {
			kind = it.DropKind
			if !strings.Contains(it.Dropped, "superseded by #") {
				t.Fatalf("reason %q", it.Dropped)
			}
		}
	}
	if kind != engine.DropSuperseded {
		t.Fatalf("old memory drop kind %q at exclude, want superseded", kind)
	}

	past, err := recall.Recall(ctx, e, engine.Query{Text: "where did I live before I moved", At: onDay(120), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s := survives(past, old.MemoryID)
	if s == nil || s.SupersededBy != up.MemoryID || !s.ValidTo.Equal(onDay(92)) {
		t.Fatalf("past query: survivor %+v, want the former fact with its validity", s)
	}
	if !strings.Contains(past.Prompt, "[until 2026-04-03] I live in Seoul") {
		t.Fatalf("prompt does not render the former fact's validity:\n%s", past.Prompt)
	}

	before, err := recall.Recall(ctx, e, engine.Query{Text: "where do I live", At: onDay(30), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if s := survives(before, old.MemoryID); s == nil || s.SupersededBy != 0 || survives(before, up.MemoryID) != nil {
		t.Fatalf("before the update: survivors %+v, want the old fact as current", before.Survivors)
	}
	if strings.Contains(before.Prompt, "[until") {
		t.Fatalf("before the update the old fact is current, prompt:\n%s", before.Prompt)
	}
}

// TestSupersedeByHandAndRollback: a curator link and unlink are audited and
// the rollback of the capture batch that linked removes the link.
func TestSupersedeByHandAndRollback(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	old := captureAt(t, e, "ci-old", "Our CI runs on Jenkins with a nightly build.", onDay(0))
	up := captureAt(t, e, "ci-new", "We moved CI to GitHub Actions this week.", onDay(60))
	if len(up.Supersedes) != 1 {
		t.Fatalf("not superseded: %+v", up.Trail)
	}
	audit, err := e.Store().AuditForMemory(ctx, old.MemoryID)
	if err != nil {
		t.Fatal(err)
	}
	var last *engine.AuditEntry
	for _, a := range audit {
		if a.Action == "supersede" {
			last = a
		}
	}
	if last == nil || last.Action != "supersede" || last.After.SupersededBy != up.MemoryID || last.Before.SupersededBy != 0 {
		t.Fatalf("audit of the link: %+v", last)
	}
	if n, err := e.Store().RollbackBatch(ctx, last.Batch, "curator"); err != nil || n != 2 {
		t.Fatalf("rollback %s: %d, %v (want 2: the new memory quarantined, the old unlinked)", last.Batch, n, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	m, _ := e.Memory(old.MemoryID)
	if m.SupersededBy != 0 || m.Status != engine.StatusActive || len(e.Supersedes(up.MemoryID)) != 0 {
		t.Fatalf("after rollback: %+v, supersedes %v", m, e.Supersedes(up.MemoryID))
	}

	// By hand: link, refuse a second link and a cycle, unlink.
	third := captureAt(t, e, "ci-3", "The release checklist for the Kestrel project lives in the team wiki now.", onDay(70))
	if _, _, err := capture.Supersede(ctx, e, old.MemoryID, third.MemoryID, time.Time{}, engine.Actor{Name: "curator", Batch: "curator-test-1"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := capture.Supersede(ctx, e, old.MemoryID, up.MemoryID, time.Time{}, engine.Actor{Name: "curator"}); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Fatalf("second link: %v, want conflict", err)
	}
	if _, _, err := capture.Supersede(ctx, e, third.MemoryID, old.MemoryID, time.Time{}, engine.Actor{Name: "curator"}); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Fatalf("cycle: %v, want conflict", err)
	}
	if _, _, err := capture.Unsupersede(ctx, e, old.MemoryID, engine.Actor{Name: "curator", Batch: "curator-test-2"}); err != nil {
		t.Fatal(err)
	}
	if m, _ := e.Memory(old.MemoryID); m.SupersededBy != 0 {
		t.Fatalf("unlink left %+v", m)
	}
	if _, _, err := capture.Unsupersede(ctx, e, old.MemoryID, engine.Actor{Name: "curator"}); engine.ErrorCode(err) != engine.EINVALID {
		t.Fatalf("unlink twice: %v, want invalid", err)
	}
}
