package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/tierstest"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/wording"
	"memtrace/store"
	"memtrace/tiers"
)

// demoLessons is the demo conversation captured through the real pipeline
// into a real store, then one heartbeat: its repeated lessons wait as
// promote proposals. The clock is the morning after the conversation.
func demoLessons(t *testing.T) (*engine.Engine, *store.DB, func() time.Time) {
	t.Helper()
	ctx := context.Background()
	msgs, _ := tierstest.ReadDemo(t)
	at := msgs[len(msgs)-1].At.Add(24 * time.Hour)
	now := func() time.Time { return at }
	db := storetest.MustOpenClock(t, now)
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture.CaptureBatch(ctx, e, msgs); err != nil {
		t.Fatal(err)
	}
	if _, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); err != nil {
		t.Fatal(err)
	}
	return e, db, now
}

// TestCuratePromotionEndToEnd drives the Curate tab with keys on the demo's
// lessons: the promote queue shows the rule and its occurrences, a edits
// the wording before approving, P applies it with the engine as a HOT rule
// of that wording, and rolling the batch back from the history takes it
// back (the rule quarantined, nothing deleted, the lesson a candidate
// again, every other memory as it was).
func TestCuratePromotionEndToEnd(t *testing.T) {
	ctx := context.Background()
	e, st, now := demoLessons(t)
	promos, err := st.FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalPromote, Status: engine.ProposalPending})
	if err != nil || len(promos) == 0 {
		t.Fatalf("the demo heartbeat proposed no promotion (%v)", err)
	}
	pr := promos[0]
	ev, err := engine.ParsePromotion(pr)
	if err != nil || len(ev.Occurrences) < engine.PromotionThreshold {
		t.Fatalf("promotion %d evidence %+v, %v", pr.ID, ev, err)
	}
	dumpBefore, err := st.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}

	m := goTo(t, startModel(t, Deps{Engine: e, Store: st, Now: now, NoColor: true}, 140, 40), "Curate")
	for curateKinds()[m.curate().queues.kindIdx] != engine.ProposalPromote {
		m = drive(t, m, press("l"))
	}
	view := screen(m)
	for _, want := range []string{"HOT rule: " + firstRunes(ev.Wording, 60), "HOT rule " + firstRunes(ev.Wording, 60),
		"seen " + wording.Count(len(ev.Occurrences), "time") + ":", ev.Occurrences[0].Session + ": " + firstRunes(ev.Occurrences[0].Text, 20)} {
		if !strings.Contains(view, want) {
			t.Fatalf("the promote queue lacks %q:\n%s", want, view)
		}
	}

	// a opens the wording, filled with the proposal's; the curator
	// rewrites it (y and n are letters here, not confirm and cancel).
	m = drive(t, m, press("a"))
	if d := m.curate().dlg; d == nil || d.kind != "wording" || d.input.Value() != ev.Wording {
		t.Fatalf("a on a promotion did not open its wording: %+v", d)
	}
	wording := "Always: " + ev.Lesson + " — 예외 없이 지킬 것 (yes, no exceptions)"
	m = drive(t, m, press("ctrl+u"))
	m = typeText(t, m, wording)
	if !strings.Contains(screen(m), "enter approve · esc cancel") {
		t.Fatalf("the wording editor is not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	got, err := st.GetProposal(ctx, pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if gev, _ := engine.ParsePromotion(got); got.Status != engine.ProposalApproved || gev.CuratorWording != wording {
		t.Fatalf("after approving: %s, wording %q", got.Status, gev.CuratorWording)
	}
	if view := screen(m); !strings.Contains(view, "HOT rule (edited) Always: "+firstRunes(ev.Lesson, 20)) || !strings.Contains(view, "1 approved (P") {
		t.Fatalf("the approved promotion does not show its edit:\n%s", view)
	}

	// P applies everything approved, the promotion included, in one batch.
	m = drive(t, m, press("P"))
	if !dialogShows(m, "Apply 1 proposal (1 promote) in one batch?") {
		t.Fatalf("apply dialog:\n%s", screen(m))
	}
	m = drive(t, m, press("y"))
	if e := m.curate().err; e != "" {
		t.Fatalf("apply failed: %s", e)
	}
	got, _ = st.GetProposal(ctx, pr.ID)
	if got.Status != engine.ProposalApplied || got.Batch == "" || got.MemoryID == 0 {
		t.Fatalf("proposal after apply: %+v", got)
	}
	rule, err := st.GetMemoryByKey(ctx, engine.LessonMemoryKey(ev.LessonKey))
	if err != nil {
		t.Fatal(err)
	}
	if rule.ID != got.MemoryID || rule.Type != "rule" || rule.Tier != engine.TierHot || rule.Status != engine.StatusActive || rule.Content != wording {
		t.Fatalf("HOT rule after apply: %+v", rule)
	}
	if c, _ := st.GetCorrection(ctx, ev.LessonKey); c.Status != engine.CorrectionPromoted {
		t.Fatalf("lesson after apply is %s", c.Status)
	}
	if em, ok := e.MemoryByKey(rule.Key); !ok || em.Content != wording {
		t.Fatal("the engine does not know the new rule")
	}

	// Roll the batch back from the history.
	m = drive(t, m, press("H"))
	if row := historyRow(screen(m), got.Batch); !strings.Contains(row, "applied") {
		t.Fatalf("history row of %s: %q", got.Batch, row)
	}
	for i, b := range m.curate().hist.batches() {
		if b.Batch == got.Batch {
			for range i {
				m = drive(t, m, press("down"))
			}
		}
	}
	m = drive(t, m, press("u")) // the plan comes back before the dialog opens
	m = drive(t, m, press("y"))
	if e := m.curate().err; e != "" {
		t.Fatalf("rollback failed: %s", e)
	}
	rule, _ = st.GetMemory(ctx, rule.ID)
	if rule.Status != engine.StatusQuarantined || rule.OrigType != "rule" {
		t.Fatalf("the rule after rollback: %+v", rule)
	}
	if em, ok := e.MemoryByKey(rule.Key); !ok || em.Status != engine.StatusQuarantined {
		t.Fatal("the engine still holds the rolled-back rule as active")
	}
	if c, _ := st.GetCorrection(ctx, ev.LessonKey); c.Status != engine.CorrectionCandidate {
		t.Fatalf("lesson after rollback is %s, want candidate", c.Status)
	}
	if p, _ := st.GetProposal(ctx, pr.ID); p.Status != engine.ProposalRolledBack {
		t.Fatalf("proposal after rollback is %s", p.Status)
	}
	// Every memory but the quarantined rule is as it was before the apply.
	dumpAfter, err := st.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var before, after struct{ Memories []json.RawMessage }
	if json.Unmarshal(dumpBefore, &before) != nil || json.Unmarshal(dumpAfter, &after) != nil {
		t.Fatal("the dumps do not parse")
	}
	if len(after.Memories) != len(before.Memories)+1 {
		t.Fatalf("%d memories after rollback, %d before: want only the quarantined rule added", len(after.Memories), len(before.Memories))
	}
	for i, b := range before.Memories {
		if string(after.Memories[i]) != string(b) {
			t.Fatalf("memory changed by apply and rollback:\n--- before\n%s\n--- after\n%s", b, after.Memories[i])
		}
	}
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// The tab opens on the first queue that has work: on the demo that is the
// heartbeat's review notes of vital memories long unused (queue keep), not
// the empty quarantine queue.
func TestCurateOpensOnFirstNonEmptyQueue(t *testing.T) {
	e, st, now := demoLessons(t)
	m := goTo(t, startModel(t, Deps{Engine: e, Store: st, Now: now, NoColor: true}, 140, 40), "Curate")
	if got := curateKinds()[m.curate().queues.kindIdx]; got != engine.ProposalKeep {
		t.Fatalf("Curate opened on the %q queue, want keep (the review notes)", got)
	}
	if v := m.View().Content; strings.Contains(v, "nothing in this queue") {
		t.Fatalf("Curate opened on an empty queue:\n%s", v)
	}
}

// A promotion whose wording holds control sequences is shown neutralised in
// the editor; approving it unedited keeps the wording itself, never the
// stand-in glyphs (␛, ⟨RLO⟩) as the rule's text.
func TestCurateApprovingAHostilePromotionUneditedKeepsItsText(t *testing.T) {
	ctx := context.Background()
	e, st, now := demoLessons(t)
	promos, err := st.FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalPromote, Status: engine.ProposalPending})
	if err != nil || len(promos) == 0 {
		t.Fatalf("no promotion to work on (%v)", err)
	}
	pr := promos[0]
	var v map[string]any
	if err := json.Unmarshal(pr.Verdict, &v); err != nil {
		t.Fatal(err)
	}
	hostile := "Run gofmt \u202eevif\u202c before commit \x1b[2J"
	v["wording"] = hostile
	if pr.Verdict, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	if err := st.UpdateProposal(ctx, pr); err != nil {
		t.Fatal(err)
	}
	m := goTo(t, startModel(t, Deps{Engine: e, Store: st, Now: now, NoColor: true}, 140, 40), "Curate")
	for curateKinds()[m.curate().queues.kindIdx] != engine.ProposalPromote {
		m = drive(t, m, press("l"))
	}
	for i, q := range m.curate().queues.list.rows {
		if q.ID == pr.ID {
			for range i {
				m = drive(t, m, press("down"))
			}
		}
	}
	m = drive(t, m, press("a"))
	d := m.curate().dlg
	if d == nil || d.kind != "wording" || !strings.Contains(d.input.Value(), "⟨RLO⟩") || strings.ContainsRune(d.input.Value(), '\u202e') {
		t.Fatalf("the editor does not show the wording neutralised: %+v", d)
	}
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		t.Fatalf("approve: %s", e)
	}
	got, err := st.GetProposal(ctx, pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := engine.ParsePromotion(got)
	if err != nil {
		t.Fatal(err)
	}
	if w := ev.RuleWording(); strings.Contains(w, "⟨RLO⟩") || strings.Contains(w, "␛") || !strings.ContainsRune(w, '\u202e') {
		t.Fatalf("the approved wording is %q, want the original text", w)
	}
}
