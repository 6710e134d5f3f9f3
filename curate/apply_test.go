package curate_test

import (
	"context"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
)

func insertProposal(t *testing.T, e *engine.Engine, kind string, memory int64, status string) int64 {
	t.Helper()
	ctx := context.Background()
	p := &engine.Proposal{Kind: kind, MemoryID: memory, Proposer: engine.ProposerCurator, Status: status, Reason: kind}
	if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, p) }); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// Two proposals of one apply that conflict on one memory (a quarantine and
// an archive) are refused before either is applied, by approve and apply
// alike; two that do not (a keep and an archive) both apply, and the 1:1
// check expects the state the last of them left.
func TestApplyRefusesConflictingProposalsOfOneMemory(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	id := tierstest.AddMemory(t, e, "m", "The build is green again after the fix.", engine.TierWarm, engine.ScopeGlobal, clk.T)
	quarantine := insertProposal(t, e, engine.ProposalQuarantine, id, engine.ProposalApproved)
	archive := insertProposal(t, e, engine.ProposalArchive, id, engine.ProposalApproved)

	_, errApprove := curate.ApproveProposals(ctx, e, []int64{quarantine, archive}, curate.ApproveOptions{})
	_, errApply := curate.Apply(ctx, e, curate.ApplyOptions{})
	for name, err := range map[string]error{"approve": errApprove, "apply": errApply} {
		if engine.ErrorCode(err) != engine.ECONFLICT {
			t.Errorf("%s of a quarantine and an archive of one memory: %v, want a conflict", name, err)
		}
	}
	if m, _ := e.Store().GetMemory(ctx, id); m.Status != engine.StatusActive || m.Tier != engine.TierWarm {
		t.Fatalf("a refused apply changed memory %d: %+v", id, m)
	}
	for _, pid := range []int64{quarantine, archive} {
		if p, _ := e.Store().GetProposal(ctx, pid); p.Status != engine.ProposalApproved || p.Batch != "" {
			t.Fatalf("a refused apply changed proposal %d: %+v", pid, p)
		}
	}

	if _, err := curate.RejectProposalsInBatch(ctx, e, []int64{quarantine}, curate.RejectOptions{Now: e.Now()}); err != nil {
		t.Fatal(err)
	}
	keep := insertProposal(t, e, engine.ProposalKeep, id, engine.ProposalApproved)
	rep, err := curate.Apply(ctx, e, curate.ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied != 1 || rep.Confirmed != 1 || len(rep.Withdrawn) != 0 {
		t.Fatalf("apply of a keep and an archive = %+v", rep)
	}
	if m, _ := e.Store().GetMemory(ctx, id); m.Status != engine.StatusArchived || m.Tier != engine.TierCold {
		t.Fatalf("memory %d after keep and archive: %+v", id, m)
	}
	for _, pid := range []int64{keep, archive} {
		if p, _ := e.Store().GetProposal(ctx, pid); p.Status != engine.ProposalApplied || p.Batch != rep.Batch {
			t.Fatalf("proposal %d after the apply: %+v", pid, p)
		}
	}
}

// A withdrawal records who made the proposal moot and the status it had,
// in fields; the rollback of the batch returns it there from them — an
// approved proposal approved again, by the curator who approved it — and
// the proposer's reason was never touched.
func TestRollbackReturnsAWithdrawnProposalToItsStatus(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	id := tierstest.AddMemory(t, e, "m", "The build is green again after the fix.", engine.TierWarm, engine.ScopeGlobal, clk.T)
	archive := insertProposal(t, e, engine.ProposalArchive, id, engine.ProposalPending)
	if _, err := curate.DecideProposals(ctx, e, []int64{archive}, engine.ProposalApproved, "ana", clk.T); err != nil {
		t.Fatal(err)
	}
	quarantine := insertProposal(t, e, engine.ProposalQuarantine, id, engine.ProposalPending)
	res, err := curate.ApproveProposals(ctx, e, []int64{quarantine}, curate.ApproveOptions{Curator: "ben"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := e.Store().GetProposal(ctx, archive)
	if p.Status != engine.ProposalWithdrawn || p.WithdrawnBy != quarantine || p.PriorStatus != engine.ProposalApproved ||
		p.Batch != res.Batch || p.DecidedBy != "ana" || p.Reason != engine.ProposalArchive {
		t.Fatalf("the approved archive after the quarantine's approval: %+v", p)
	}
	if _, err := curate.RollbackApplied(ctx, e.Store(), res.Batch, "ben"); err != nil {
		t.Fatal(err)
	}
	p, _ = e.Store().GetProposal(ctx, archive)
	if p.Status != engine.ProposalApproved || p.WithdrawnBy != 0 || p.PriorStatus != "" || p.Batch != "" || p.DecidedBy != "ana" || p.Reason != engine.ProposalArchive {
		t.Fatalf("the archive after the rollback: %+v; want approved by ana again", p)
	}
}
