package capture_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

var testNow = time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)

type labels struct {
	Noise              []string            `json:"noise"`
	MustKeep           []string            `json:"must_keep"`
	GenuineMilestones  []string            `json:"genuine_milestones"`
	FalseMilestones    []string            `json:"false_milestones"`
	Corrections        map[string][]string `json:"corrections"`
	LessonStatus       map[string]string   `json:"lesson_status"`
	CorrectionSessions map[string][]string `json:"correction_sessions"`
	NotLessons         []string            `json:"not_lessons"`
	Updates            map[string][]string `json:"updates"`
	NearMisses         map[string][]string `json:"near_misses"`
}

// readMessageFile reads a message JSONL file, skipping the test when it
// is absent.
func readMessageFile(t testing.TB, path string) []engine.Message {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s absent: %v", path, err)
	}
	defer f.Close()
	var msgs []engine.Message
	if _, err := capture.ReadMessages(f, func(_ int, m engine.Message) error { msgs = append(msgs, m); return nil }); err != nil {
		t.Fatal(err)
	}
	return msgs
}

func demo(t testing.TB) ([]engine.Message, labels) {
	t.Helper()
	msgs := readMessageFile(t, "../testdata/demo.jsonl")
	b, err := os.ReadFile("../testdata/demo_labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var l labels
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return msgs, l
}

func openCaptureEngine(t testing.TB, judge engine.Judge) *engine.Engine {
	t.Helper()
	db := storetest.MustOpenClock(t, func() time.Time { return testNow })
	e, err := engine.Open(context.Background(), engine.Options{Store: db, Judge: judge, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func captureAll(t testing.TB, e *engine.Engine, msgs []engine.Message, batch int) map[string]*engine.CaptureResult {
	t.Helper()
	out := map[string]*engine.CaptureResult{}
	for i := 0; i < len(msgs); i += batch {
		rs, err := capture.CaptureBatch(context.Background(), e, msgs[i:min(i+batch, len(msgs))])
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			out[r.MessageID] = r
		}
	}
	return out
}

// TestCaptureDemo ingests the demo conversation into a real SQLite file and
// checks every labelled message's fate by id.
func TestCaptureDemo(t *testing.T) {
	msgs, l := demo(t)
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	rs := captureAll(t, e, msgs, 100)

	caps, total, err := e.Store().FindCaptures(ctx, engine.CaptureFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if total != len(msgs) {
		t.Fatalf("captures has %d rows, want every offered message (%d)", total, len(msgs))
	}
	byMsg := map[string]*engine.CaptureRecord{}
	for _, c := range caps {
		byMsg[c.MessageID] = c
	}
	for _, id := range l.Noise {
		c := byMsg[id]
		if c == nil || c.Outcome != engine.OutcomeDropped || (c.DroppedBy != engine.LayerL1 && c.DroppedBy != engine.LayerL2) || c.Reason == "" {
			t.Errorf("noise %s: capture %+v, want dropped by l1/l2 with a named reason", id, c)
		}
	}
	for _, id := range l.MustKeep {
		r := rs[id]
		if r.Outcome != engine.OutcomeStored && r.Outcome != engine.OutcomeReinforced {
			t.Errorf("must-keep %s: %s by %s (%s)", id, r.Outcome, r.DroppedBy, r.Reason)
			continue
		}
		if r.Decider != "rules" {
			t.Errorf("%s decided by %q, want rules (no judge configured)", id, r.Decider)
		}
		if r.Outcome == engine.OutcomeStored {
			m, ok := e.MemoryByKey(id)
			if !ok || m.ID != r.MemoryID || m.Scope == "" || !m.CreatedAt.Before(testNow) {
				t.Errorf("must-keep %s: memory %+v", id, m)
			}
		}
	}
	for _, id := range l.GenuineMilestones {
		if m, ok := e.MemoryByKey(id); !ok || m.Type != "milestone" {
			t.Errorf("genuine milestone %s stored as %q", id, m.Type)
		}
	}
	for _, id := range l.FalseMilestones {
		if m, ok := e.MemoryByKey(id); ok && slices.Contains([]string{"milestone", "habit", "achievement", "gift", "shared_thing"}, m.Type) {
			t.Errorf("false milestone %s stored as %q: %q", id, m.Type, m.Content)
		}
	}
	// One label per statement: at most one gate decision for each
	// statement of a message (one, unless it was split), and one memory
	// per key.
	for id, r := range rs {
		gates := 0
		for _, d := range r.Trail {
			if d.Layer == engine.LayerGate {
				gates++
			}
		}
		if gates > max(1, len(r.Statements)) {
			t.Errorf("%s has %d gate decisions: %+v", id, gates, r.Trail)
		}
	}
	ms, n, err := e.Store().FindMemories(ctx, engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, m := range ms {
		if keys[m.Key] {
			t.Errorf("two memories with key %s", m.Key)
		}
		keys[m.Key] = true
	}
	if n == 0 || n != e.Len() {
		t.Errorf("%d memories in the store, %d in the engine", n, e.Len())
	}

	// Lessons: the same lesson across sessions and languages is one row.
	all := map[string]*engine.Correction{}
	for _, st := range []string{engine.CorrectionPending, engine.CorrectionCandidate} {
		cs, err := e.Store().FindCorrections(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			all[c.LessonKey] = c
		}
	}
	for lesson, ids := range l.Corrections {
		var found *engine.Correction
		for _, c := range all {
			var occ []string
			for _, o := range c.Occurrences {
				occ = append(occ, o.MessageID)
			}
			if slices.Contains(occ, ids[0]) {
				if found != nil {
					t.Errorf("lesson %s split over %s and %s", lesson, found.LessonKey, c.LessonKey)
				}
				found = c
				slices.Sort(occ)
				if !slices.Equal(occ, ids) {
					t.Errorf("lesson %s occurrences %v, want %v", lesson, occ, ids)
				}
			}
		}
		if found == nil {
			t.Errorf("lesson %s not recorded", lesson)
			continue
		}
		if found.Status != l.LessonStatus[lesson] || found.Count != len(ids) {
			t.Errorf("lesson %s: %s count %d, want %s count %d", lesson, found.Status, found.Count, l.LessonStatus[lesson], len(ids))
		}
		var sessions []string
		for _, o := range found.Occurrences {
			sessions = append(sessions, o.Session)
		}
		slices.Sort(sessions)
		if !slices.Equal(sessions, l.CorrectionSessions[lesson]) {
			t.Errorf("lesson %s sessions %v, want %v", lesson, sessions, l.CorrectionSessions[lesson])
		}
	}
	cands, _ := e.Store().FindCorrections(ctx, engine.CorrectionCandidate)
	if len(cands) != 2 {
		t.Errorf("%d candidates, want 2 (panic, gofmt)", len(cands))
	}
	for _, c := range all {
		for _, o := range c.Occurrences {
			if slices.Contains(l.NotLessons, o.MessageID) {
				t.Errorf("one-off/context-bound %s counted toward lesson %s", o.MessageID, c.LessonKey)
			}
		}
	}
	for _, id := range l.NotLessons {
		skipped := false
		for _, d := range rs[id].Trail {
			skipped = skipped || (d.Layer == engine.LayerCorrect && d.Verdict == "skip")
		}
		if !skipped {
			t.Errorf("%s: the trail does not say why it is not a lesson: %+v", id, rs[id].Trail)
		}
	}

	// Idempotent: re-ingesting adds nothing and is counted as skipped.
	before := e.Len()
	again := captureAll(t, e, msgs, 500)
	for id, r := range again {
		if r.Outcome != capture.OutcomeSkipped {
			t.Fatalf("re-ingest of %s: %s", id, r.Outcome)
		}
	}
	if _, total2, _ := e.Store().FindCaptures(ctx, engine.CaptureFilter{}); total2 != total || e.Len() != before {
		t.Errorf("re-ingest changed captures %d→%d, memories %d→%d", total, total2, before, e.Len())
	}
}

func TestCaptureDedupeReinforces(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	text := "My sister Jiyeon lives in Daejeon and works as a nurse at the university hospital."
	first, err := capture.Capture(ctx, e, engine.Message{ID: "a1", Session: "s1", Role: "user", Text: text, At: at})
	if err != nil || first.Outcome != engine.OutcomeStored {
		t.Fatalf("first capture: %+v %v", first, err)
	}
	m0, _ := e.Memory(first.MemoryID)
	// Same words in another session, a week later, in one batch with an
	// exact repeat: both reinforce the first memory.
	rs, err := capture.CaptureBatch(ctx, e, []engine.Message{
		{ID: "a2", Session: "s2", Role: "user", Text: "  my sister Jiyeon lives in Daejeon and works as a nurse at the university hospital. ", At: at.Add(7 * 24 * time.Hour)},
		{ID: "a3", Session: "s3", Role: "user", Text: text, At: at.Add(8 * 24 * time.Hour)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Outcome != engine.OutcomeReinforced || r.MemoryID != first.MemoryID {
			t.Fatalf("%s: %s memory %d, want reinforced %d; trail %+v", r.MessageID, r.Outcome, r.MemoryID, first.MemoryID, r.Trail)
		}
	}
	m, _ := e.Memory(first.MemoryID)
	if m.AccessCount != 2 || m.Importance <= m0.Importance || !m.LastAccessedAt.Equal(at.Add(8*24*time.Hour)) || e.Len() != 1 {
		t.Errorf("after reinforce: access %d importance %.3f (was %.3f) last %v, %d memories", m.AccessCount, m.Importance, m0.Importance, m.LastAccessedAt, e.Len())
	}
	audit, err := e.Store().AuditForMemory(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, a := range audit {
		actions = append(actions, a.Actor+":"+a.Action)
	}
	if strings.Join(actions, ",") != "capture:create,capture:reinforce,capture:reinforce" {
		t.Errorf("audit %v", actions)
	}
}

// fakeJudge answers with a fixed verdict or error.
type fakeJudge struct {
	v   engine.CaptureVerdict
	err error
}

func (f fakeJudge) Name() string { return "fake" }
func (f fakeJudge) JudgeCapture(context.Context, engine.CaptureInput) (engine.CaptureVerdict, error) {
	return f.v, f.err
}

func TestCaptureJudge(t *testing.T) {
	ctx := context.Background()
	msg := engine.Message{ID: "j1", Session: "s1", Role: "user", Text: "I am allergic to peanuts and carry an epinephrine pen.", At: testNow.Add(-time.Hour)}

	t.Run("NeedsReviewIsNeverActedOn", func(t *testing.T) {
		e := openCaptureEngine(t, fakeJudge{v: engine.CaptureVerdict{Store: true, Kind: engine.KindFact, Type: "health", Importance: 0.9, NeedsReview: true}})
		r, err := capture.Capture(ctx, e, msg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != engine.OutcomeHeld || r.DroppedBy != "" || r.Reason != "needs_review" || e.Len() != 0 || r.Decider != "judge:fake" {
			t.Errorf("got %+v, %d memories", r, e.Len())
		}
		// Held, not lost: the message waits in the review queue.
		items, n, err := e.Store().FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
		if err != nil || n != 1 || items[0].MessageID != "j1" || items[0].Text != msg.Text || items[0].Attempts != 1 || items[0].Judge != "judge:fake" {
			t.Fatalf("review queue = %+v (%d), %v", items, n, err)
		}
	})
	t.Run("JudgeTypeStored", func(t *testing.T) {
		e := openCaptureEngine(t, fakeJudge{v: engine.CaptureVerdict{Store: true, Kind: engine.KindFact, Type: "health", Importance: 0.9, Reason: "allergy"}})
		r, err := capture.Capture(ctx, e, msg)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := e.Memory(r.MemoryID)
		if r.Outcome != engine.OutcomeStored || m.Type != "health" || m.Importance != 0.9 || m.Key != "j1" {
			t.Errorf("got %+v / %+v", r, m)
		}
	})
	t.Run("JudgeErrorFallsBackToRules", func(t *testing.T) {
		e := openCaptureEngine(t, fakeJudge{err: errors.New("connection refused")})
		r, err := capture.Capture(ctx, e, msg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != engine.OutcomeStored || r.Decider != "rules" || r.Type != "health" {
			t.Errorf("got %+v", r)
		}
	})
	t.Run("DeclarationFailsGate", func(t *testing.T) {
		e := openCaptureEngine(t, fakeJudge{v: engine.CaptureVerdict{Store: true, Kind: engine.KindFact, Type: "milestone", Importance: 1}})
		r, err := capture.Capture(ctx, e, engine.Message{ID: "j2", Session: "s1", Role: "user", Text: "*smiles warmly* I will always trust you with my code, partner", At: testNow})
		if err != nil {
			t.Fatal(err)
		}
		var gate engine.Decision
		for _, d := range r.Trail {
			if d.Layer == engine.LayerGate {
				gate = d
			}
		}
		if r.Type != "note" || gate.Verdict != "unlabel" || gate.Pattern != "roleplay_action" {
			t.Errorf("got type %q, gate %+v", r.Type, gate)
		}
	})
}
