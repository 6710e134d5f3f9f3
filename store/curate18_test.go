package store_test

import (
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// The reads and fields the Curate tab's rejection undo and superseded
// queue rely on, on every backend: MemoryFilter.Superseded, FindAudit after
// an id (of superseded memories only), and a proposal's prior_status.
func TestSupersededAuditAndPriorStatus(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpenClock(t, newClock().Now)
		ctx := t.Context()
		a, c := newMemory("a", "I live in Seoul"), newMemory("c", "I like tea")
		bb := newMemory("b", "I moved to Busan")
		for _, m := range []*engine.Memory{a, bb, c} {
			must(t, db.InsertMemory(ctx, m, engine.Actor{Name: "capture"}))
		}
		before, err := db.FindAudit(ctx, engine.AuditFilter{})
		must(t, err)
		a.SupersededBy, a.ValidTo, a.SupersededAt = bb.ID, at(5), at(5)
		must(t, db.UpdateMemory(ctx, a, engine.Actor{Name: "curator", Batch: "curator-x-1"}, "supersede"))
		c.Importance = 0.9
		must(t, db.UpdateMemory(ctx, c, engine.Actor{Name: "curator", Batch: "curator-x-2"}, "importance"))

		ms, total, err := db.FindMemories(ctx, engine.MemoryFilter{Superseded: true})
		must(t, err)
		if total != 1 || len(ms) != 1 || ms[0].ID != a.ID {
			t.Fatalf("superseded memories = %d %v, want only %d", total, ms, a.ID)
		}
		last := before[len(before)-1].ID
		rows, err := db.FindAudit(ctx, engine.AuditFilter{AfterID: last, Superseded: true})
		must(t, err)
		if len(rows) != 1 || rows[0].MemoryID != a.ID || rows[0].Action != "supersede" || rows[0].After.SupersededBy != bb.ID {
			t.Fatalf("audit after %d of superseded memories = %+v", last, rows)
		}
		all, err := db.FindAudit(ctx, engine.AuditFilter{AfterID: last})
		must(t, err)
		if len(all) != 2 || all[0].ID >= all[1].ID {
			t.Fatalf("audit after %d = %d rows, want 2 oldest first", last, len(all))
		}

		p := &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: c.ID, Proposer: engine.ProposerHeartbeat,
			Status: engine.ProposalRejected, PriorStatus: engine.ProposalReview, Batch: "curator-x-3"}
		must(t, db.InsertProposal(ctx, p))
		got, err := db.GetProposal(ctx, p.ID)
		must(t, err)
		if got.PriorStatus != engine.ProposalReview {
			t.Fatalf("prior_status = %q", got.PriorStatus)
		}
		got.PriorStatus = ""
		must(t, db.UpdateProposal(ctx, got))
		if got, _ = db.GetProposal(ctx, p.ID); got.PriorStatus != "" {
			t.Fatalf("prior_status after update = %q", got.PriorStatus)
		}
	})
}
