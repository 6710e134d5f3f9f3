package curate_test

import (
	"context"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// TestApplyApprovedPromotions: promotions approved in the Curate tab's way
// (marked approved, one with an edited wording) apply with the other
// approved proposals in one verified batch through the engine, and
// `rollback BATCH` (RollbackApplied) takes all of it back.
func TestApplyApprovedPromotions(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	saveLesson(t, e, "panic", "s01", "s06", "s12")
	saveLesson(t, e, "globals", "s02", "s03", "s04")
	noisy := tierstest.AddMemory(t, e, "noisy", "ok thanks", engine.TierWarm, engine.ScopeGlobal, clk.T)
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	promo := map[string]int64{}
	for _, hp := range r.Proposals {
		if hp.Kind == engine.ProposalPromote {
			promo[hp.LessonKey] = hp.ID
		}
	}
	if len(promo) != 2 {
		t.Fatalf("heartbeat proposals %+v, want promotions of panic and globals", r.Proposals)
	}
	quarantine := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: noisy, Proposer: engine.ProposerCurator,
		Reason: "acknowledgement", Status: engine.ProposalPending}
	if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, quarantine) }); err != nil {
		t.Fatal(err)
	}

	const edited = "Return errors; never panic in library code."
	if err := curate.ApprovePromotion(ctx, e, promo["panic"], "  Return errors;\n never panic in library code.  ", "curator", clk.T); err != nil {
		t.Fatal(err)
	}
	if _, err := curate.DecideProposals(ctx, e, []int64{promo["globals"], quarantine.ID}, engine.ProposalApproved, "curator", clk.T); err != nil {
		t.Fatal(err)
	}
	p, err := e.Store().GetProposal(ctx, promo["panic"])
	if err != nil {
		t.Fatal(err)
	}
	ev, err := engine.ParsePromotion(p)
	if err != nil || p.Status != engine.ProposalApproved || ev.CuratorWording != edited || ev.Wording != "Never panic in library code" ||
		ev.RuleWording() != edited || len(ev.Occurrences) != 3 {
		t.Fatalf("approved promotion %s: evidence %+v, %v", p.Status, ev, err)
	}

	rep, err := curate.Apply(ctx, e, curate.ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied != 3 || !strings.HasPrefix(rep.Batch, "apply-") {
		t.Fatalf("apply report %+v, want 3 applied", rep)
	}
	rules := map[string]*engine.Memory{}
	for lesson, want := range map[string]string{"panic": edited, "globals": "Never globals in library code"} {
		m, ok := e.MemoryByKey(engine.LessonMemoryKey(lesson))
		if !ok || m.Tier != engine.TierHot || m.Type != "rule" || m.Status != engine.StatusActive || m.Content != want {
			t.Fatalf("rule of %s = %+v (%v), want HOT rule %q", lesson, m, ok, want)
		}
		rules[lesson] = &m
		c, err := e.Store().GetCorrection(ctx, lesson)
		if err != nil || c.Status != engine.CorrectionPromoted {
			t.Fatalf("lesson %s = %+v, %v; want promoted", lesson, c, err)
		}
		p, err := e.Store().GetProposal(ctx, promo[lesson])
		if err != nil || p.Status != engine.ProposalApplied || p.Batch != rep.Batch || p.MemoryID != m.ID {
			t.Fatalf("proposal of %s after apply = %+v, %v", lesson, p, err)
		}
	}
	if m, _ := e.Store().GetMemory(ctx, noisy); m.Status != engine.StatusQuarantined {
		t.Fatalf("memory %d after apply = %+v", noisy, m)
	}
	audit, err := e.Store().AuditForBatch(ctx, rep.Batch)
	if err != nil || len(audit) != 3 {
		t.Fatalf("audit of %s: %d rows, %v", rep.Batch, len(audit), err)
	}

	// The clock is pinned: a second apply must not reuse the batch id.
	extra := &engine.Proposal{Kind: engine.ProposalRestore, MemoryID: noisy, Proposer: engine.ProposerCurator,
		Reason: "not noise after all", Status: engine.ProposalApproved}
	if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, extra) }); err != nil {
		t.Fatal(err)
	}
	rep2, err := curate.Apply(ctx, e, curate.ApplyOptions{})
	if err != nil || rep2.Batch == rep.Batch || rep2.Applied != 1 {
		t.Fatalf("second apply under the same clock: %+v, %v", rep2, err)
	}

	// Rolled back newest first, as `memtrace rollback BATCH` does.
	for _, b := range []string{rep2.Batch, rep.Batch} {
		if _, err := curate.RollbackApplied(ctx, e.Store(), b, "curator"); err != nil {
			t.Fatalf("rollback %s: %v", b, err)
		}
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for lesson, rule := range rules {
		m, err := e.Store().GetMemory(ctx, rule.ID)
		if err != nil || m.Status != engine.StatusQuarantined {
			t.Fatalf("rule of %s after rollback = %+v, %v; want quarantined", lesson, m, err)
		}
		if c, _ := e.Store().GetCorrection(ctx, lesson); c.Status != engine.CorrectionCandidate {
			t.Fatalf("lesson %s after rollback is %s, want candidate", lesson, c.Status)
		}
		if p, _ := e.Store().GetProposal(ctx, promo[lesson]); p.Status != engine.ProposalRolledBack {
			t.Fatalf("proposal of %s after rollback is %s", lesson, p.Status)
		}
	}
	if m, _ := e.Store().GetMemory(ctx, noisy); m.Status != engine.StatusActive {
		t.Fatalf("memory %d after rollback = %+v", noisy, m)
	}
}

func TestApprovePromotionRefuses(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	saveLesson(t, e, "panic", "s01", "s06", "s12")
	id := tierstest.AddMemory(t, e, "noisy", "ok thanks", engine.TierWarm, engine.ScopeGlobal, clk.T)
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil || len(r.Proposals) != 1 {
		t.Fatalf("heartbeat: %+v, %v", r, err)
	}
	promo := r.Proposals[0].ID
	other := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: engine.ProposerCurator, Status: engine.ProposalPending}
	if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, other) }); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		id      int64
		wording string
		code    string
	}{
		"ErrEmpty":        {promo, " \n ", engine.EINVALID},
		"ErrTooLong":      {promo, strings.Repeat("규칙", 101), engine.EINVALID},
		"ErrNotPromotion": {other.ID, "anything", engine.EINVALID},
		"ErrNotFound":     {999, "anything", engine.ENOTFOUND},
	} {
		t.Run(name, func(t *testing.T) {
			if err := curate.ApprovePromotion(ctx, e, tc.id, tc.wording, "curator", clk.T); engine.ErrorCode(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	if p, _ := e.Store().GetProposal(ctx, promo); p.Status != engine.ProposalPending {
		t.Fatalf("a refused approval left the proposal %s", p.Status)
	}
	// Approving the proposed wording unchanged records no edit.
	if err := curate.ApprovePromotion(ctx, e, promo, "Never panic in library code", "curator", clk.T); err != nil {
		t.Fatal(err)
	}
	p, _ := e.Store().GetProposal(ctx, promo)
	if ev, _ := engine.ParsePromotion(p); p.Status != engine.ProposalApproved || ev.CuratorWording != "" {
		t.Fatalf("approval as proposed: %s, %+v", p.Status, ev)
	}
}
