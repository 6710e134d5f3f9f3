package curate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

func saveLesson(t *testing.T, e *engine.Engine, key string, sessions ...string) {
	t.Helper()
	c := &engine.Correction{LessonKey: key, Context: "code review", Correction: "don't " + key,
		Lesson: "Never " + key + " in library code", Scope: engine.ScopeGlobal, Status: engine.CorrectionPending}
	for i, s := range sessions {
		at := tierstest.Epoch.Add(time.Duration(i-len(sessions)) * 24 * time.Hour)
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

func proposalKinds(r *tiers.HeartbeatReport) map[string][]int64 {
	out := map[string][]int64{}
	for _, p := range r.Proposals {
		out[p.Kind] = append(out[p.Kind], p.MemoryID)
	}
	return out
}

func TestHeartbeatPromotesALessonSeenThreeTimesExactlyOnce(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	saveLesson(t, e, "panic", "s01", "s06", "s12")
	saveLesson(t, e, "table-tests", "s06", "s16") // twice: stays pending, never proposed

	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
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
	r2, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Proposals) != 0 || r2.AlreadyPending != 1 {
		t.Fatalf("second heartbeat proposed %+v (already pending %d), want nothing new", r2.Proposals, r2.AlreadyPending)
	}

	// The curator approves with an edited wording: a HOT rule appears, the
	// lesson is promoted, all under one audited batch.
	res, err := curate.ApproveProposals(ctx, e, []int64{p.ID}, curate.ApproveOptions{Wording: map[int64]string{p.ID: "Return errors; never panic in library code."}})
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
	if r3, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); len(r3.Proposals) != 0 {
		t.Fatalf("heartbeat after promotion proposed %+v", r3.Proposals)
	}

	// Rolling the batch back quarantines the created rule (nothing is
	// deleted) and returns the lesson to candidate.
	if rep, err := curate.RollbackApplied(ctx, e.Store(), res.Batch, "rollback"); err != nil || rep.Restored != 1 {
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

// addLifeMemory adds a memory of the given kind, type and importance.
func addLifeMemory(t *testing.T, e *engine.Engine, key, text string, kind engine.Kind, typ string, imp float64, tier engine.Tier, lastUse time.Time) int64 {
	t.Helper()
	m := &engine.Memory{Key: key, Content: text, Kind: kind, Tier: tier, Scope: engine.ScopeGlobal, Type: typ, Importance: imp,
		CreatedAt: lastUse, LastAccessedAt: lastUse}
	if err := e.AddMemory(context.Background(), m, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// The lifecycle rules follow the forgetting model: a HOT rule unused 31
// days is demoted, a trivial episode the forecast has forgotten is
// archived, a vital fact of the same age gets a review note and no move, and
// a fact the forecast still remembers is left alone however old.
func TestHeartbeatMovesFollowTheForgettingModel(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	day := 24 * time.Hour
	hot31 := addLifeMemory(t, e, "hot31", "Always answer in Korean when the user writes in Korean.", engine.KindFact, "rule", 0.9, engine.TierHot, tierstest.Epoch.Add(-31*day))
	trivial := addLifeMemory(t, e, "trivial", "오늘 점심은 김밥이었어요.", engine.KindEpisode, "note", 0.1, engine.TierWarm, tierstest.Epoch.Add(-91*day))
	vital := addLifeMemory(t, e, "vital", "The user is lactose intolerant and drinks oat milk.", engine.KindFact, "health", 0.85, engine.TierWarm, tierstest.Epoch.Add(-91*day))
	remembered := addLifeMemory(t, e, "old-fact", "memtrace uses SQLite in WAL mode with a busy timeout.", engine.KindFact, "note", 0.5, engine.TierWarm, tierstest.Epoch.Add(-91*day))
	fresh := addLifeMemory(t, e, "fresh", "Run gofmt before every commit.", engine.KindFact, "rule", 0.9, engine.TierHot, tierstest.Epoch.Add(-29*day))
	if m, _ := e.Memory(trivial); !engine.ForgetAt(m, e.Config()).Before(tierstest.Epoch) {
		t.Fatalf("fixture: the trivial episode's forecast %v is not before %v", engine.ForgetAt(m, e.Config()), tierstest.Epoch)
	}
	for _, id := range []int64{vital, remembered} {
		if m, _ := e.Memory(id); !engine.ForgetAt(m, e.Config()).After(tierstest.Epoch) {
			t.Fatalf("fixture: memory %d is forgotten by its forecast", id)
		}
	}

	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := proposalKinds(r)
	if fmt.Sprint(got[engine.ProposalDemote]) != fmt.Sprint([]int64{hot31}) || fmt.Sprint(got[engine.ProposalArchive]) != fmt.Sprint([]int64{trivial}) ||
		fmt.Sprint(got[engine.ProposalKeep]) != fmt.Sprint([]int64{vital}) || len(r.Proposals) != 3 {
		t.Fatalf("proposals = %+v; want demote %d, archive %d, review note (keep) %d, nothing for %d or %d", got, hot31, trivial, vital, remembered, fresh)
	}
	rules := map[int64]string{hot31: tiers.RuleHotUnused, trivial: tiers.RuleForgotten, vital: tiers.RuleVitalReview}
	for i, p := range r.Proposals {
		ev := p.Evidence
		if ev == nil || p.Rule != rules[p.MemoryID] || ev.Rule != p.Rule || ev.LastUse.IsZero() || ev.ForgetAt.IsZero() || ev.Importance == 0 {
			t.Fatalf("proposal %+v evidence %+v; want rule %s with last use, importance and forecast", p, ev, rules[p.MemoryID])
		}
		if i > 0 && p.Score > r.Proposals[i-1].Score {
			t.Fatalf("proposals not ranked by score: %+v", r.Proposals)
		}
	}
	pa, _ := e.Store().GetProposal(ctx, r.Proposals[2].ID)
	if ev, ok := tiers.ParseLifecycleEvidence(pa); !ok || ev.UnusedDays == 0 || ev.File == "" {
		t.Fatalf("stored evidence = %+v, %v", ev, ok)
	}
	for _, p := range r.Proposals {
		if p.MemoryID == trivial && (p.Evidence.ForgetAt.After(r.At) || p.Evidence.From != engine.TierWarm || p.Evidence.To != engine.TierCold) {
			t.Fatalf("archive evidence = %+v", p.Evidence)
		}
		if p.MemoryID == vital && (!p.Evidence.Vital || !strings.HasPrefix(p.Reason, "review:")) {
			t.Fatalf("review note = %+v", p)
		}
	}
	if r2, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); err != nil || len(r2.Proposals) != 0 {
		t.Fatalf("second heartbeat = %+v, %v; want nothing new", r2, err)
	}
	// Simulated at +2 days, the fresh rule crosses 30 days; a dry run
	// reports it and writes nothing.
	dry, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{At: tierstest.Epoch.Add(2 * day), DryRun: true})
	if err != nil || len(dry.Proposals) != 1 || dry.Proposals[0].MemoryID != fresh || dry.Proposals[0].ID != 0 {
		t.Fatalf("dry run at +2d = %+v, %v", dry, err)
	}

	clk.T = tierstest.Epoch.Add(time.Hour)
	var ids []int64
	for _, p := range r.Proposals {
		ids = append(ids, p.ID)
	}
	res, err := curate.ApproveProposals(ctx, e, ids, curate.ApproveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][2]string{hot31: {"warm", "active"}, trivial: {"cold", "archived"}, vital: {"warm", "active"}}
	for id, w := range want {
		m, _ := e.Memory(id)
		if string(m.Tier) != w[0] || string(m.Status) != w[1] {
			t.Errorf("memory %d after approve: %s/%s, want %s/%s", id, m.Tier, m.Status, w[0], w[1])
		}
	}
	// The reviewed vital memory is not noted again until it is used; the
	// demoted rule's clock starts again in WARM.
	if r4, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); err != nil || len(r4.Proposals) != 0 {
		t.Fatalf("heartbeat right after approval = %+v, %v; want nothing", r4.Proposals, err)
	}
	rep, err := curate.RollbackApplied(ctx, e.Store(), res.Batch, "rollback")
	if err != nil || rep.Restored != 2 || rep.Effect.Kept != 1 {
		t.Fatalf("rollback = %+v, %v; want the two moves restored and the review note's keep", rep, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for id, tier := range map[int64]engine.Tier{hot31: engine.TierHot, trivial: engine.TierWarm} {
		if m, _ := e.Memory(id); m.Tier != tier || m.Status != engine.StatusActive {
			t.Errorf("memory %d after rollback: %s/%s, want %s/active", id, m.Tier, m.Status, tier)
		}
	}
}

// A memory with an open proposal gets no conflicting second one, and
// approving a proposal withdraws the ones it makes moot, with an audit row;
// rolling the approval back makes them pending again.
func TestApprovalWithdrawsMootProposals(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	day := 24 * time.Hour
	id := addLifeMemory(t, e, "old-episode", "잠깐 커피 마시러 다녀올게요.", engine.KindEpisode, "note", 0.1, engine.TierWarm, tierstest.Epoch.Add(-91*day))
	var quarantine engine.Proposal
	err := e.Update(ctx, func(q engine.Queries) error {
		quarantine = engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: engine.ProposerJudge, Status: engine.ProposalPending, Reason: "echo", CreatedAt: tierstest.Epoch}
		return q.InsertProposal(ctx, &quarantine)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); len(r.Proposals) != 0 {
		t.Fatalf("heartbeat beside a pending quarantine proposed %+v", r.Proposals)
	}
	// A memory with a pending archive, then a quarantine proposal written
	// beside it by another writer: approving the quarantine withdraws the
	// archive.
	id2 := addLifeMemory(t, e, "old-episode-2", "The build is green again.", engine.KindEpisode, "note", 0.1, engine.TierWarm, tierstest.Epoch.Add(-91*day))
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 || r.Proposals[0].Kind != engine.ProposalArchive || r.Proposals[0].MemoryID != id2 {
		t.Fatalf("heartbeat = %+v, %v; want the archive of %d", r.Proposals, err, id2)
	}
	archiveID := r.Proposals[0].ID
	q2 := engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id2, Proposer: engine.ProposerJudge, Status: engine.ProposalPending, Reason: "noise", CreatedAt: tierstest.Epoch}
	if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, &q2) }); err != nil {
		t.Fatal(err)
	}
	clk.T = tierstest.Epoch.Add(time.Hour)
	res, err := curate.ApproveProposals(ctx, e, []int64{q2.ID}, curate.ApproveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pa, _ := e.Store().GetProposal(ctx, archiveID)
	if pa.Status != curate.ProposalWithdrawn || pa.Batch != res.Batch || pa.WithdrawnBy != q2.ID || pa.PriorStatus != engine.ProposalPending ||
		!strings.HasPrefix(pa.Reason, "forgotten by the decay model") || curate.ShownReason(pa) != pa.Reason+fmt.Sprintf("; withdrawn: moot after proposal %d was applied in batch %s", q2.ID, res.Batch) {
		t.Fatalf("archive after the quarantine's approval = %+v; want withdrawn under %s", pa, res.Batch)
	}
	hist, _ := e.Store().AuditForMemory(ctx, id2)
	if last := hist[len(hist)-1]; last.Action != curate.ActionWithdraw || last.Batch != res.Batch {
		t.Fatalf("audit of %d = %+v; want a withdraw row under the batch", id2, hist)
	}
	if _, err := curate.RollbackApplied(ctx, e.Store(), res.Batch, "rollback"); err != nil {
		t.Fatal(err)
	}
	if pa, _ := e.Store().GetProposal(ctx, archiveID); pa.Status != engine.ProposalPending || pa.Batch != "" || pa.WithdrawnBy != 0 || pa.PriorStatus != "" ||
		curate.ShownReason(pa) != pa.Reason {
		t.Fatalf("archive after the rollback = %+v; want pending again", pa)
	}
	if !curate.ProposalsConflict(engine.ProposalArchive, engine.ProposalRetype) || !curate.ProposalsConflict(engine.ProposalPromote, engine.ProposalDemote) ||
		curate.ProposalsConflict(engine.ProposalKeep, engine.ProposalArchive) {
		t.Fatal("conflict table")
	}
}

// The age rules keep at most MaxShare of the store waiting, the highest
// score first, and say how many more are due.
func TestHeartbeatCapsTheShareOfTheStore(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	day := 24 * time.Hour
	var ids []int64
	for i := range 30 {
		ids = append(ids, addLifeMemory(t, e, fmt.Sprintf("r%02d", i), fmt.Sprintf("Rule %d: keep the changelog bilingual.", i), engine.KindFact, "rule",
			0.3+float64(i)/100, engine.TierHot, tierstest.Epoch.Add(-40*day)))
	}
	for i := range 170 {
		addLifeMemory(t, e, fmt.Sprintf("n%03d", i), fmt.Sprintf("Note %d about the garden app.", i), engine.KindFact, "note", 0.5, engine.TierWarm, tierstest.Epoch)
	}
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Proposals) != 20 || r.Budget != 20 || r.Waiting != 10 || r.WaitingReason == "" {
		t.Fatalf("capped pass: %d proposals, budget %d, waiting %d (%q); want 20, 20, 10", len(r.Proposals), r.Budget, r.Waiting, r.WaitingReason)
	}
	// The highest importance first: rules 29 … 10.
	if r.Proposals[0].MemoryID != ids[29] || r.Proposals[19].MemoryID != ids[10] {
		t.Fatalf("ranking: first %d last %d; want %d and %d", r.Proposals[0].MemoryID, r.Proposals[19].MemoryID, ids[29], ids[10])
	}
	if r2, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); len(r2.Proposals) != 0 || r2.Waiting != 10 {
		t.Fatalf("second pass = %d proposals, %d waiting; want 0 and 10", len(r2.Proposals), r2.Waiting)
	}
	if r3, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{MaxShare: 0.2, DryRun: true}); len(r3.Proposals) != 10 || r3.Waiting != 0 {
		t.Fatalf("at 20 %% = %d proposals, %d waiting; want the other 10", len(r3.Proposals), r3.Waiting)
	}
	if _, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{MaxShare: 1.5}); engine.ErrorCode(err) != engine.EINVALID {
		t.Fatalf("max share 1.5: %v", err)
	}
}

func TestRejectedDemotionIsNotProposedAgainUntilUsed(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	id := tierstest.AddMemory(t, e, "k", "Deploys of garden-app go through the staging track first.", engine.TierHot, engine.ScopeGlobal, tierstest.Epoch.Add(-40*24*time.Hour))
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 {
		t.Fatalf("heartbeat = %+v, %v", r, err)
	}
	if res, err := curate.RejectProposalsInBatch(ctx, e, []int64{r.Proposals[0].ID}, curate.RejectOptions{Reason: "still needed", Now: e.Now()}); err != nil || res.Rejected != 1 {
		t.Fatalf("reject = %+v, %v", res, err)
	}
	if r, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); len(r.Proposals) != 0 {
		t.Fatalf("rejected demotion proposed again: %+v", r.Proposals)
	}
	if m, _ := e.Memory(id); m.Tier != engine.TierHot {
		t.Fatalf("rejected demotion moved the memory to %s", m.Tier)
	}
}

func TestHeartbeatProposesDemotionsForAHotTierOverItsCap(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	var ids []int64
	for i := range engine.HotLineCap + 1 {
		// Recently used, so only the cap can be the reason; the oldest use first.
		ids = append(ids, tierstest.AddMemory(t, e, fmt.Sprintf("h%03d", i), fmt.Sprintf("Rule number %d: keep replies short and code first.", i),
			engine.TierHot, engine.ScopeGlobal, tierstest.Epoch.Add(-time.Duration(200-i)*time.Hour)))
	}
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 101 memories + 2 header lines = 103 lines: three must leave.
	got := proposalKinds(r)[engine.ProposalDemote]
	if fmt.Sprint(got) != fmt.Sprint(ids[:3]) {
		t.Fatalf("cap demotions = %v, want the three least recently used %v", got, ids[:3])
	}
	if r2, _ := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); len(r2.Proposals) != 0 {
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
	e, _ := tierstest.Open(t)
	saveLesson(t, e, "gofmt", "s04", "s10", "s16")
	saveLesson(t, e, "bad", "s01", "s02", "s03")
	good := &fixedReviewer{v: engine.PromotionVerdict{Verdict: "keep_warm", Wording: "Run gofmt before every commit.", Scope: "project:memtrace", Reason: "Go only", Confidence: 0.8}}
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{Reviewer: good})
	if err != nil || len(r.Proposals) != 2 || good.calls != 2 {
		t.Fatalf("heartbeat = %+v, %v, %d calls", r, err, good.calls)
	}
	p, _ := e.Store().GetProposal(ctx, r.Proposals[1].ID)
	ev, _ := engine.ParsePromotion(p)
	if ev.LessonKey != "gofmt" || ev.Wording != "Run gofmt before every commit." || ev.Scope != "project:memtrace" || p.TargetType != "warm" || p.Confidence != 0.8 {
		t.Fatalf("reviewed proposal = %+v / %+v", p, ev)
	}

	// An answer that does not validate is needs_review, never an action.
	e2, _ := tierstest.Open(t)
	saveLesson(t, e2, "gofmt", "s04", "s10", "s16")
	bad := &fixedReviewer{v: engine.PromotionVerdict{Verdict: "promote", Wording: "", Scope: "everywhere", Confidence: 3}}
	r2, err := tiers.Heartbeat(ctx, e2, tiers.HeartbeatOptions{Reviewer: bad})
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
	e, _ := tierstest.Open(t)
	lessons := []string{"Read the failing test before editing code", "read failing tests before editing the code", "Before editing code, read the failing test"}
	var key string
	for i, l := range lessons {
		c, err := capture.Reflect(ctx, e, capture.Reflection{Intended: "fix the bug in one pass", Actual: "edited the wrong file twice", Lesson: l, Session: fmt.Sprintf("s%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Count != i+1 {
			t.Fatalf("reflection %d counted %d (key %s), want %d", i, c.Count, c.LessonKey, i+1)
		}
		key = c.LessonKey
	}
	c, _ := e.Store().GetCorrection(ctx, key)
	if c.Status != engine.CorrectionCandidate || !strings.HasPrefix(c.LessonKey, capture.ReflectionPrefix) || len(c.Occurrences) != 3 {
		t.Fatalf("reflection lesson = %+v", c)
	}
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 || r.Proposals[0].LessonKey != key {
		t.Fatalf("heartbeat = %+v, %v", r, err)
	}
	if _, err := capture.Reflect(ctx, e, capture.Reflection{Intended: "x", Actual: ""}); engine.ErrorCode(err) != engine.EINVALID {
		t.Fatalf("reflection without actual: %v", err)
	}
}
