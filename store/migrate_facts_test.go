package store_test

import (
	"context"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// oldProposal is a proposal as an older memtrace left it, the facts of
// its fate only in its reason, and what migration 28 makes of it.
type oldProposal struct {
	status, reason string
	wantReason     string
	wantBy         int64
	wantNote       string
}

var oldProposals = []oldProposal{
	{engine.ProposalWithdrawn, "unused for 91 days; withdrawn: moot after proposal 7 (quarantine) was applied in batch approve-20260601T090000Z-3",
		"unused for 91 days", 7, ""},
	{engine.ProposalWithdrawn, "; withdrawn: moot after proposal 12 (demote) was applied in batch apply-20260601T090000Z-4", "", 12, ""},
	// Not the text of a withdrawal, or not withdrawn: left as it is.
	{engine.ProposalWithdrawn, "withdrawn by hand", "withdrawn by hand", 0, ""},
	{engine.ProposalPending, "noise; withdrawn: moot after proposal 3 (archive) was applied in batch b", "noise; withdrawn: moot after proposal 3 (archive) was applied in batch b", 0, ""},
	// A rejection's note is the text after the last marker (a rolled-back
	// rejection's was cut off before the next one was added).
	{engine.ProposalRejected, "unused; rejected: used every spring", "unused", 0, "used every spring"},
	{engine.ProposalRejected, "; rejected: not noise", "", 0, "not noise"},
	{engine.ProposalRejected, "echo", "echo", 0, ""},
	{engine.ProposalPending, "echo; rejected: a real fact", "echo; rejected: a real fact", 0, ""},
}

// A database written before migration 28 keeps the facts of a withdrawal
// and of a rejection in the proposal's reason, and a batch's kind only in
// its id: the migration moves them into withdrawn_by, reject_note and the
// batches table and gives the reason back as the proposer wrote it, on
// both backends — the batches read as they did before the downgrade.
func TestMigration28MovesProposalFactsOutOfTheReason(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		ctx := context.Background()
		dsn := be.Fresh(t)
		db, err := store.Open(ctx, dsn, newClock().Now)
		must(t, err)
		m := newMemory("m", "a memory with proposals")
		must(t, db.InsertMemory(ctx, m, engine.Actor{Name: "test"}))
		var ids []int64
		for _, o := range oldProposals {
			p := &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: m.ID, Proposer: engine.ProposerHeartbeat, Status: o.status, Reason: o.reason}
			must(t, db.InsertProposal(ctx, p))
			ids = append(ids, p.ID)
		}
		batches := writeKindBatches(t, db)
		checkBatchKinds(t, db, batches)
		space := db.Space()
		must(t, db.Close())
		rawExec(t, be, dsn, space,
			`ALTER TABLE proposals DROP COLUMN withdrawn_by`,
			`ALTER TABLE proposals DROP COLUMN reject_note`,
			`DROP TABLE batches`,
			`DELETE FROM migrations WHERE name = '0028_proposal_batch_facts.sql'`)
		db, err = store.Open(ctx, dsn, newClock().Now)
		must(t, err)
		defer db.Close()
		checkBatchKinds(t, db, batches)
		for i, o := range oldProposals {
			p, err := db.GetProposal(ctx, ids[i])
			must(t, err)
			if p.Reason != o.wantReason || p.WithdrawnBy != o.wantBy || p.RejectNote != o.wantNote || p.Status != o.status {
				t.Errorf("proposal %q after the migration: reason %q, withdrawn_by %d, reject_note %q, status %s; want %q, %d, %q",
					o.reason, p.Reason, p.WithdrawnBy, p.RejectNote, p.Status, o.wantReason, o.wantBy, o.wantNote)
			}
		}
	})
}

// kindBatch is a batch and the kind and rolled-back batch it must report.
type kindBatch struct{ batch, kind, rollbackOf string }

// writeKindBatches writes a capture batch and its rollback, an import of
// memories (which names its own batch id), a batch id a caller chose, and
// a rejection (proposals only, no audit rows).
func writeKindBatches(t *testing.T, db *store.DB) []kindBatch {
	t.Helper()
	ctx := context.Background()
	var capture, reject string
	must(t, db.Update(ctx, func(q engine.Queries) error {
		var err error
		if capture, err = q.NextBatchID(ctx, engine.BatchCapture); err != nil {
			return err
		}
		if err := q.InsertMemory(ctx, newMemory("c1", "captured one"), engine.Actor{Name: "capture", Batch: capture}); err != nil {
			return err
		}
		for _, b := range []string{"import:claude-code:20260601T090000.000000000-0a1b2c3d", "synthetic"} {
			if err := q.InsertMemory(ctx, newMemory("m-"+b, "memory of "+b), engine.Actor{Name: "import", Batch: b}); err != nil {
				return err
			}
		}
		if reject, err = q.NextBatchID(ctx, engine.BatchCurator); err != nil {
			return err
		}
		return q.InsertProposal(ctx, &engine.Proposal{Kind: engine.ProposalArchive, Proposer: engine.ProposerHeartbeat,
			Status: engine.ProposalRejected, PriorStatus: engine.ProposalPending, Batch: reject, Reason: "unused"})
	}))
	_, err := db.RollbackBatch(ctx, capture, "curator")
	must(t, err)
	return []kindBatch{
		{capture, engine.BatchCapture, ""},
		{"rollback:" + capture, engine.BatchRollback, capture},
		{"import:claude-code:20260601T090000.000000000-0a1b2c3d", "", ""},
		{"synthetic", "", ""},
		{reject, engine.BatchCurator, ""},
	}
}

// checkBatchKinds checks the kind each batch of want reports, in the
// batch history and to BatchKind, and the kind of its rollback plan.
func checkBatchKinds(t *testing.T, db *store.DB, want []kindBatch) {
	t.Helper()
	ctx := context.Background()
	bs, err := db.Batches(ctx, 0)
	must(t, err)
	listed := map[string]engine.BatchInfo{}
	for _, b := range bs {
		listed[b.Batch] = b
	}
	for _, w := range want {
		kind, of, err := db.BatchKind(ctx, w.batch)
		must(t, err)
		if kind != w.kind || of != w.rollbackOf {
			t.Errorf("BatchKind(%s) = %q, %q; want %q, %q", w.batch, kind, of, w.kind, w.rollbackOf)
		}
		if w.kind == engine.BatchCurator {
			continue // a rejection has no audit rows: BatchHistory lists it
		}
		b, ok := listed[w.batch]
		if !ok || b.Kind != w.kind || b.RollbackOf != w.rollbackOf {
			t.Errorf("batch %s listed as %+v (%v); want kind %q, rollback of %q", w.batch, b, ok, w.kind, w.rollbackOf)
		}
		if plan, err := db.PlanRollback(ctx, w.batch); err != nil || plan.Kind != w.kind {
			t.Errorf("rollback plan of %s: %+v, %v; want kind %q", w.batch, plan, err, w.kind)
		}
	}
}
