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
// and of a rejection in the proposal's reason: the migration moves them
// into withdrawn_by and reject_note and gives the reason back as the
// proposer wrote it, on both backends.
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
		space := db.Space()
		must(t, db.Close())
		rawExec(t, be, dsn, space,
			`ALTER TABLE proposals DROP COLUMN withdrawn_by`,
			`ALTER TABLE proposals DROP COLUMN reject_note`,
			`DELETE FROM migrations WHERE name = '0028_proposal_batch_facts.sql'`)
		db, err = store.Open(ctx, dsn, newClock().Now)
		must(t, err)
		defer db.Close()
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
