package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store/storetest"
)

// tierClock is a settable test clock.
type tierClock struct{ t time.Time }

func (c *tierClock) now() time.Time { return c.t }

var tiersEpoch = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

func openTiers(t *testing.T) (*engine.Engine, *tierClock) {
	t.Helper()
	c := &tierClock{t: tiersEpoch}
	db := storetest.MustOpenClock(t, c.now)
	e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

func addTierMemory(t *testing.T, e *engine.Engine, key, text string, tier engine.Tier, scope string, lastUse time.Time) int64 {
	t.Helper()
	m := &engine.Memory{Key: key, Content: text, Tier: tier, Scope: scope, Type: "note", Importance: 0.5,
		CreatedAt: lastUse, LastAccessedAt: lastUse}
	if err := e.AddMemory(context.Background(), m, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func saveLesson(t *testing.T, e *engine.Engine, key string, sessions ...string) {
	t.Helper()
	c := &engine.Correction{LessonKey: key, Context: "code review", Correction: "don't " + key,
		Lesson: "Never " + key + " in library code", Scope: engine.ScopeGlobal, Status: engine.CorrectionPending}
	for i, s := range sessions {
		at := tiersEpoch.Add(time.Duration(i-len(sessions)) * 24 * time.Hour)
		c.Occurrences = append(c.Occurrences, engine.Occurrence{MessageID: fmt.Sprintf("%s-%d", key, i), Session: s, Text: "stop doing " + key, At: at})
		c.Count++
		if i == 0 {
			c.FirstSeen = at
		}
		c.LastSeen = at
	}
	if c.Count >= engine.PromotionThreshold {
		c.Status = engine.CorrectionCandidate
	}
	if err := e.Update(context.Background(), func(q engine.Queries) error { return q.SaveCorrection(context.Background(), c) }); err != nil {
		t.Fatal(err)
	}
}

func proposalKinds(r *engine.HeartbeatReport) map[string][]int64 {
	out := map[string][]int64{}
	for _, p := range r.Proposals {
		out[p.Kind] = append(out[p.Kind], p.MemoryID)
	}
	return out
}

func TestHeartbeatPromotesALessonSeenThreeTimesExactlyOnce(t *testing.T) {
	ctx := context.Background()
	e, _ := openTiers(t)
	saveLesson(t, e, "panic", "s01", "s06", "s12")
	saveLesson(t, e, "table-tests", "s06", "s16") // twice: stays pending, never proposed

	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Proposals) != 1 || r.Proposals[0].Kind != engine.ProposalPromote || r.Proposals[0].LessonKey != "panic" {
		t.Fatalf("proposals = %+v, want one promote of lesson panic", r.Proposals)
	}
	p, err := e.Store().GetProposal(ctx, r.Proposals[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := engine.ParsePromotion(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Occurrences) != 3 || ev.Occurrences[2].Session != "s12" || ev.Wording != "Never panic in library code" {
		t.Fatalf("evidence = %+v", ev)
	}
	r2, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Proposals) != 0 || r2.AlreadyPending != 1 {
		t.Fatalf("second heartbeat proposed %+v (already pending %d), want nothing new", r2.Proposals, r2.AlreadyPending)
	}

	// The curator approves with an edited wording: a HOT rule appears, the
	// lesson is promoted, all under one audited batch.
	res, err := e.ApproveProposals(ctx, []int64{p.ID}, engine.ApproveOptions{Wording: map[int64]string{p.ID: "Return errors; never panic in library code."}})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := e.MemoryByKey(engine.LessonMemoryKey("panic"))
	if !ok || m.Tier != engine.TierHot || m.Type != "rule" || m.Content != "Return errors; never panic in library code." || m.Status != engine.StatusActive {
		t.Fatalf("promoted memory = %+v, %v", m, ok)
	}
	c, err := e.Store().GetCorrection(ctx, "panic")
	if err != nil || c.Status != engine.CorrectionPromoted {
		t.Fatalf("lesson = %+v, %v; want promoted", c, err)
	}
	audit, err := e.Store().AuditForBatch(ctx, res.Batch)
	if err != nil || len(audit) != 1 || audit[0].MemoryID != m.ID || audit[0].Actor != "curator" {
		t.Fatalf("audit of %s = %+v, %v", res.Batch, audit, err)
	}
	if r3, _ := e.Heartbeat(ctx, engine.HeartbeatOptions{}); len(r3.Proposals) != 0 {
		t.Fatalf("heartbeat after promotion proposed %+v", r3.Proposals)
	}

	// Rolling the batch back quarantines the created rule (nothing is
	// deleted) and returns the lesson to candidate.
	if rep, err := engine.RollbackApplied(ctx, e.Store(), res.Batch, "rollback"); err != nil || rep.Restored != 1 {
		t.Fatalf("rollback = %+v, %v", rep, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	m, _ = e.MemoryByKey(engine.LessonMemoryKey("panic"))
	if m.Status != engine.StatusQuarantined {
		t.Fatalf("after rollback the rule is %s, want quarantined", m.Status)
	}
	if c, _ := e.Store().GetCorrection(ctx, "panic"); c.Status != engine.CorrectionCandidate {
		t.Fatalf("lesson after rollback is %s", c.Status)
	}
	if p, _ := e.Store().GetProposal(ctx, p.ID); p.Status != engine.ProposalRolledBack {
		t.Fatalf("proposal after rollback is %s", p.Status)
	}
}

func TestHeartbeatDemotesAndArchivesByLastUse(t *testing.T) {
	ctx := context.Background()
	e, clk := openTiers(t)
	day := 24 * time.Hour
	hot31 := addTierMemory(t, e, "hot31", "Always answer in Korean when the user writes in Korean.", engine.TierHot, engine.ScopeGlobal, tiersEpoch.Add(-31*day))
	warm31 := addTierMemory(t, e, "warm31", "memtrace uses SQLite in WAL mode with a busy timeout.", engine.TierWarm, "project:memtrace", tiersEpoch.Add(-31*day))
	warm91 := addTierMemory(t, e, "warm91", "The garden-app splash screen uses the green logo.", engine.TierWarm, "project:garden-app", tiersEpoch.Add(-91*day))
	fresh := addTierMemory(t, e, "fresh", "The user is lactose intolerant and drinks oat milk.", engine.TierHot, engine.ScopeGlobal, tiersEpoch.Add(-29*day))

	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := proposalKinds(r)
	if fmt.Sprint(got[engine.ProposalDemote]) != fmt.Sprint([]int64{hot31, warm31}) || fmt.Sprint(got[engine.ProposalArchive]) != fmt.Sprint([]int64{warm91}) || len(r.Proposals) != 3 {
		t.Fatalf("proposals = %+v; want demote %d,%d and archive %d (not %d)", r.Proposals, hot31, warm31, warm91, fresh)
	}
	pa, _ := e.Store().GetProposal(ctx, r.Proposals[2].ID)
	var ev engine.LifecycleEvidence
	if err := json.Unmarshal(pa.Verdict, &ev); err != nil || ev.UnusedDays != 91 || ev.From != engine.TierWarm || ev.To != engine.TierCold || ev.File != "projects/garden-app.md" {
		t.Fatalf("archive evidence = %+v, %v", ev, err)
	}
	for _, m := range []int64{hot31, warm31, warm91} {
		if mm, _ := e.Memory(m); mm.Status != engine.StatusActive {
			t.Fatalf("heartbeat moved memory %d", m)
		}
	}
	if r2, err := e.Heartbeat(ctx, engine.HeartbeatOptions{}); err != nil || len(r2.Proposals) != 0 {
		t.Fatalf("second heartbeat = %+v, %v; want nothing new", r2, err)
	}
	// Simulated at +2 days, the fresh memory crosses 30 days; a dry run
	// reports it and writes nothing.
	dry, err := e.Heartbeat(ctx, engine.HeartbeatOptions{At: tiersEpoch.Add(2 * day), DryRun: true})
	if err != nil || len(dry.Proposals) != 1 || dry.Proposals[0].MemoryID != fresh || dry.Proposals[0].ID != 0 {
		t.Fatalf("dry run at +2d = %+v, %v", dry, err)
	}
	r3, err := e.Heartbeat(ctx, engine.HeartbeatOptions{At: tiersEpoch.Add(2 * day)})
	if err != nil || len(r3.Proposals) != 1 || r3.Proposals[0].MemoryID != fresh {
		t.Fatalf("heartbeat at +2d = %+v, %v; want the demotion of %d", r3, err, fresh)
	}

	clk.t = tiersEpoch.Add(time.Hour)
	var ids []int64
	for _, p := range r.Proposals {
		ids = append(ids, p.ID)
	}
	res, err := e.ApproveProposals(ctx, ids, engine.ApproveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Batch != "approve-20260601T100000Z-1" || len(res.Applied) != 3 {
		t.Fatalf("approve = %+v", res)
	}
	want := map[int64][2]string{hot31: {"warm", "active"}, warm31: {"cold", "archived"}, warm91: {"cold", "archived"}}
	for id, w := range want {
		m, _ := e.Memory(id)
		if string(m.Tier) != w[0] || string(m.Status) != w[1] {
			t.Errorf("memory %d after approve: %s/%s, want %s/%s", id, m.Tier, m.Status, w[0], w[1])
		}
		hist, err := e.Store().AuditForMemory(ctx, id)
		if err != nil || len(hist) != 2 || hist[1].Batch != res.Batch || hist[1].Before.Tier == hist[1].After.Tier {
			t.Errorf("audit of %d = %+v, %v", id, hist, err)
		}
	}
	// The demoted memory's clock starts again in WARM: nothing is due.
	if r4, err := e.Heartbeat(ctx, engine.HeartbeatOptions{}); err != nil || len(r4.Proposals) != 0 {
		t.Fatalf("heartbeat right after approval = %+v, %v; want nothing", r4, err)
	}
	if r5, _ := e.Heartbeat(ctx, engine.HeartbeatOptions{At: tiersEpoch.Add(31 * day)}); len(r5.Proposals) != 1 || r5.Proposals[0].MemoryID != hot31 || r5.Proposals[0].Target != "cold" {
		t.Fatalf("heartbeat 31 days after the demotion = %+v; want WARM → COLD for %d (%d is already pending)", r5.Proposals, hot31, fresh)
	}
	if _, err := e.ApproveProposals(ctx, ids[:1], engine.ApproveOptions{}); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Fatalf("approving an applied proposal again: %v, want conflict", err)
	}

	rep, err := engine.RollbackApplied(ctx, e.Store(), res.Batch, "rollback")
	if err != nil || rep.Restored != 3 {
		t.Fatalf("rollback = %+v, %v", rep, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	back := map[int64]engine.Tier{hot31: engine.TierHot, warm31: engine.TierWarm, warm91: engine.TierWarm}
	for id, tier := range back {
		m, _ := e.Memory(id)
		if m.Tier != tier || m.Status != engine.StatusActive {
			t.Errorf("memory %d after rollback: %s/%s, want %s/active", id, m.Tier, m.Status, tier)
		}
	}
	ps, _ := e.Store().FindProposals(ctx, engine.ProposalFilter{Batch: res.Batch})
	for _, p := range ps {
		if p.Status != engine.ProposalRolledBack {
			t.Errorf("proposal %d after rollback: %s", p.ID, p.Status)
		}
	}
}

func TestRejectedDemotionIsNotProposedAgainUntilUsed(t *testing.T) {
	ctx := context.Background()
	e, _ := openTiers(t)
	id := addTierMemory(t, e, "k", "Deploys of garden-app go through the staging track first.", engine.TierHot, engine.ScopeGlobal, tiersEpoch.Add(-40*24*time.Hour))
	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 {
		t.Fatalf("heartbeat = %+v, %v", r, err)
	}
	if n, err := e.RejectProposals(ctx, []int64{r.Proposals[0].ID}, "", "still needed"); err != nil || n != 1 {
		t.Fatalf("reject = %d, %v", n, err)
	}
	if r, _ := e.Heartbeat(ctx, engine.HeartbeatOptions{}); len(r.Proposals) != 0 {
		t.Fatalf("rejected demotion proposed again: %+v", r.Proposals)
	}
	if m, _ := e.Memory(id); m.Tier != engine.TierHot {
		t.Fatalf("rejected demotion moved the memory to %s", m.Tier)
	}
}

func TestHeartbeatProposesDemotionsForAHotTierOverItsCap(t *testing.T) {
	ctx := context.Background()
	e, _ := openTiers(t)
	var ids []int64
	for i := range engine.HotLineCap + 1 {
		// Recently used, so only the cap can be the reason; the oldest use first.
		ids = append(ids, addTierMemory(t, e, fmt.Sprintf("h%03d", i), fmt.Sprintf("Rule number %d: keep replies short and code first.", i),
			engine.TierHot, engine.ScopeGlobal, tiersEpoch.Add(-time.Duration(200-i)*time.Hour)))
	}
	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 101 memories + 2 header lines = 103 lines: three must leave.
	got := proposalKinds(r)[engine.ProposalDemote]
	if fmt.Sprint(got) != fmt.Sprint(ids[:3]) {
		t.Fatalf("cap demotions = %v, want the three least recently used %v", got, ids[:3])
	}
	if r2, _ := e.Heartbeat(ctx, engine.HeartbeatOptions{}); len(r2.Proposals) != 0 {
		t.Fatalf("second heartbeat over cap proposed %+v", r2.Proposals)
	}
}

// reviewer answers from a fixed verdict, as the Ollama judge would.
type fixedReviewer struct {
	v     engine.PromotionVerdict
	calls int
}

func (r *fixedReviewer) Name() string { return "judge:test" }
func (r *fixedReviewer) Review(_ context.Context, c engine.Correction) (engine.PromotionVerdict, error) {
	r.calls++
	return r.v, nil
}

func TestPromotionReviewerProposesWordingAndScope(t *testing.T) {
	ctx := context.Background()
	e, _ := openTiers(t)
	saveLesson(t, e, "gofmt", "s04", "s10", "s16")
	saveLesson(t, e, "bad", "s01", "s02", "s03")
	good := &fixedReviewer{v: engine.PromotionVerdict{Verdict: "keep_warm", Wording: "Run gofmt before every commit.", Scope: "project:memtrace", Reason: "Go only", Confidence: 0.8}}
	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{Reviewer: good})
	if err != nil || len(r.Proposals) != 2 || good.calls != 2 {
		t.Fatalf("heartbeat = %+v, %v, %d calls", r, err, good.calls)
	}
	p, _ := e.Store().GetProposal(ctx, r.Proposals[1].ID)
	ev, _ := engine.ParsePromotion(p)
	if ev.LessonKey != "gofmt" || ev.Wording != "Run gofmt before every commit." || ev.Scope != "project:memtrace" || p.TargetType != "warm" || p.Confidence != 0.8 {
		t.Fatalf("reviewed proposal = %+v / %+v", p, ev)
	}

	// An answer that does not validate is needs_review, never an action.
	e2, _ := openTiers(t)
	saveLesson(t, e2, "gofmt", "s04", "s10", "s16")
	bad := &fixedReviewer{v: engine.PromotionVerdict{Verdict: "promote", Wording: "", Scope: "everywhere", Confidence: 3}}
	r2, err := e2.Heartbeat(ctx, engine.HeartbeatOptions{Reviewer: bad})
	if err != nil || len(r2.Proposals) != 1 || r2.Proposals[0].Status != engine.ProposalReview {
		t.Fatalf("invalid review = %+v, %v; want needs_review", r2, err)
	}
	p2, _ := e2.Store().GetProposal(ctx, r2.Proposals[0].ID)
	var raw map[string]any
	_ = json.Unmarshal(p2.Verdict, &raw)
	if raw["wording"] != "Never gofmt in library code" || raw["scope"] != "global" {
		t.Fatalf("needs_review proposal took the invalid answer: %v", raw)
	}
}

func TestReflectionRepeatedThreeTimesBecomesAPromotion(t *testing.T) {
	ctx := context.Background()
	e, _ := openTiers(t)
	lessons := []string{"Read the failing test before editing code", "read failing tests before editing the code", "Before editing code, read the failing test"}
	var key string
	for i, l := range lessons {
		c, err := e.Reflect(ctx, engine.Reflection{Intended: "fix the bug in one pass", Actual: "edited the wrong file twice", Lesson: l, Session: fmt.Sprintf("s%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Count != i+1 {
			t.Fatalf("reflection %d counted %d (key %s), want %d", i, c.Count, c.LessonKey, i+1)
		}
		key = c.LessonKey
	}
	c, _ := e.Store().GetCorrection(ctx, key)
	if c.Status != engine.CorrectionCandidate || !strings.HasPrefix(c.LessonKey, engine.ReflectionPrefix) || len(c.Occurrences) != 3 {
		t.Fatalf("reflection lesson = %+v", c)
	}
	r, err := e.Heartbeat(ctx, engine.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 || r.Proposals[0].LessonKey != key {
		t.Fatalf("heartbeat = %+v, %v", r, err)
	}
	if _, err := e.Reflect(ctx, engine.Reflection{Intended: "x", Actual: ""}); engine.ErrorCode(err) != engine.EINVALID {
		t.Fatalf("reflection without actual: %v", err)
	}
}
