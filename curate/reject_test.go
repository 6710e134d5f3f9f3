package curate_test

import (
	"context"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
)

// A rejection is a batch: it lists in the history, and rolling it back
// returns each proposal to the status it had (pending, needs_review,
// approved) with the rejection's reason taken off.
func TestRejectionRollsBackToThePriorStatus(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	st := e.Store()
	id := tierstest.AddMemory(t, e, "k1", "Deploys go through staging first.", engine.TierWarm, engine.ScopeGlobal, tierstest.Epoch)
	var ids []int64
	for _, status := range []string{engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved} {
		p := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: engine.ProposerJudge,
			Confidence: 0.8, Reason: "echo", Status: status}
		if err := st.InsertProposal(ctx, p); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	res, err := curate.RejectProposalsInBatch(ctx, e, ids, curate.RejectOptions{Reason: "a real fact", Now: e.Now()})
	if err != nil || res.Rejected != 3 || res.Batch == "" {
		t.Fatalf("reject = %+v, %v", res, err)
	}
	for _, pid := range ids {
		p, _ := st.GetProposal(ctx, pid)
		if p.Status != engine.ProposalRejected || p.Batch != res.Batch || p.Reason != "echo" || p.RejectNote != "a real fact" ||
			curate.ShownReason(p) != "echo; rejected: a real fact" {
			t.Fatalf("proposal %d after reject = %+v", pid, p)
		}
	}
	hist, err := curate.BatchHistory(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) == 0 || hist[0].Batch != res.Batch || hist[0].Effect.Rejected != 3 || !hist[0].CanRollback {
		t.Fatalf("history = %+v; want the rejection first", hist)
	}
	plan, err := curate.PlanRollback(ctx, st, res.Batch)
	if err != nil || !plan.CanRollback() || plan.Rejected != 3 || plan.RolledBack {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	rep, err := curate.RollbackApplied(ctx, st, res.Batch, "curator")
	if err != nil || rep.Rejected != 3 || rep.Restored != 0 {
		t.Fatalf("rollback = %+v, %v", rep, err)
	}
	for i, want := range []string{engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved} {
		p, _ := st.GetProposal(ctx, ids[i])
		if p.Status != want || p.Reason != "echo" || p.RejectNote != "" || p.Batch != "" || p.PriorStatus != "" {
			t.Fatalf("proposal %d after rollback = %+v; want %s", ids[i], p, want)
		}
	}
	// The rejection and its rollback stay in the history: the proposals
	// no longer name the batch, its record does.
	hist, err = curate.BatchHistory(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Kind != engine.BatchRollback || hist[0].RollbackOf != res.Batch || hist[0].Actor != "curator" ||
		hist[1].Batch != res.Batch || !hist[1].RolledBack || hist[1].CanRollback || hist[1].Effect.Rejected != 3 {
		t.Fatalf("history after the rollback = %+v; want its rollback, then the rejection marked rolled back", hist)
	}
	if _, err := curate.RollbackApplied(ctx, st, res.Batch, "curator"); err == nil || !strings.Contains(err.Error(), "already rolled back") {
		t.Fatalf("a second rollback of the rejection: %v; want a refusal that says it was rolled back", err)
	}
	if m, _ := st.GetMemory(ctx, id); m.Status != engine.StatusActive {
		t.Fatalf("the memory changed: %+v", m)
	}
}

// Rejecting a proposal that is applied refuses and writes nothing.
func TestRejectRefusesAnAppliedProposal(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	st := e.Store()
	id := tierstest.AddMemory(t, e, "k1", "x", engine.TierWarm, engine.ScopeGlobal, tierstest.Epoch)
	open := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: engine.ProposerJudge, Status: engine.ProposalPending}
	done := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: engine.ProposerJudge, Status: engine.ProposalApplied}
	for _, p := range []*engine.Proposal{open, done} {
		if err := st.InsertProposal(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := curate.RejectProposalsInBatch(ctx, e, []int64{open.ID, done.ID}, curate.RejectOptions{}); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Fatalf("reject of an applied proposal: %v; want ECONFLICT", err)
	}
	if p, _ := st.GetProposal(ctx, open.ID); p.Status != engine.ProposalPending {
		t.Fatalf("the open proposal was rejected anyway: %+v", p)
	}
}

// Under a pinned clock (the demo's) a rejection and the audited batch
// before it carry one time: the history still lists the later one first,
// by the store's batch counter.
func TestRejectionListsBeforeAnOlderBatchOfTheSameTime(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	st := e.Store()
	m := &engine.Memory{Key: "k1", Content: "Deploys go through staging first.", Kind: engine.KindFact, Type: "note",
		Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: 0.5, CreatedAt: e.Now()}
	if err := e.PrepareMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	added, err := e.AddMemoryInBatch(ctx, m, "curator")
	if err != nil {
		t.Fatal(err)
	}
	p := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: engine.ProposerJudge, Status: engine.ProposalPending}
	if err := st.InsertProposal(ctx, p); err != nil {
		t.Fatal(err)
	}
	res, err := curate.RejectProposalsInBatch(ctx, e, []int64{p.ID}, curate.RejectOptions{Reason: "a real fact", Now: e.Now()})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := curate.BatchHistory(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || !hist[0].At.Equal(hist[1].At) || hist[0].Batch != res.Batch || hist[1].Batch != added {
		t.Fatalf("history = %+v; want the rejection %s before %s", hist, res.Batch, added)
	}
}
