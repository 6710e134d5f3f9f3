package curate_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// Two processes (two engines, each on its own store handle) approve the
// same proposals at the same moment: exactly one applies them, the other
// is refused with ECONFLICT and changes nothing — on SQLite (BEGIN
// IMMEDIATE) and on PostgreSQL (the row lock every write takes).
func TestConcurrentApprovalsApplyOnce(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := context.Background()
		path := b.Fresh(t)
		now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		var engines [2]*engine.Engine
		for i := range engines {
			db := storetest.MustOpenPath(t, path, clock)
			e, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			engines[i] = e
		}
		st := engines[0].Store()
		// One proposal is the narrowest race (both read it pending before
		// either writes); forty make the transactions overlap long.
		for round, size := range []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 40, 40} {
			var ids []int64
			for j := range size {
				m := &engine.Memory{Key: fmt.Sprintf("r%d-%d", round, j), Content: fmt.Sprintf("memory %d of round %d", j, round),
					Kind: engine.KindFact, Type: "note", Status: engine.StatusActive, Tier: engine.TierWarm, Scope: engine.ScopeGlobal,
					CreatedAt: now, LastAccessedAt: now, BoostAt: now, Hash: engine.ContentHash(fmt.Sprint(round, j))}
				if err := st.InsertMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
					t.Fatal(err)
				}
				p := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: engine.ProposerCurator,
					Reason: "test", Status: engine.ProposalPending, CreatedAt: now}
				if err := st.InsertProposal(ctx, p); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, p.ID)
			}
			var wg sync.WaitGroup
			var errs [2]error
			start := make(chan struct{})
			for i, e := range engines {
				wg.Go(func() {
					<-start
					// Batch ids of their own: no shared batch counter to queue on.
					_, errs[i] = curate.ApproveProposals(ctx, e, ids, curate.ApproveOptions{Batch: fmt.Sprintf("approve:r%d-e%d", round, i)})
				})
			}
			close(start)
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case engine.ErrorCode(err) != engine.ECONFLICT:
					t.Fatalf("round %d: engine %d: %v (want success or ECONFLICT)", round, i, err)
				}
			}
			if ok != 1 {
				t.Fatalf("round %d: %d approvals succeeded (%v), want exactly 1", round, ok, errs)
			}
			for _, id := range ids {
				p, err := st.GetProposal(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				audit, err := st.AuditForMemory(ctx, p.MemoryID)
				if err != nil {
					t.Fatal(err)
				}
				if p.Status != engine.ProposalApplied || len(audit) != 2 {
					t.Fatalf("round %d: proposal %d is %s with %d audit rows on its memory; want applied once (create + quarantine)", round, id, p.Status, len(audit))
				}
			}
		}
	})
}
