package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
)

// BenchmarkCurateOpen100k measures what opening (or reloading) the Curate
// tab reads from a real SQLite store of 100k memories: the seed batch that
// created them all (100k audit rows), 1,000 supersession links and 2,000
// proposals (half open, half applied). "reload" is the whole load the tab
// runs; the others are its reads one by one, to show which one grows with
// the database. The reference of the same run is one page of the Memories
// list (FindMemories with a limit of 200).
func BenchmarkCurateOpen100k(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, newMemories(100_000), nil)
	if err := s.Update(ctx, func(q engine.Queries) error {
		for i := range 1000 {
			old, err := q.GetMemory(ctx, int64(2*i+1))
			if err != nil {
				return err
			}
			old.SupersededBy, old.ValidTo, old.SupersededAt = int64(2*i+2), testNow, testNow
			if err := q.UpdateMemory(ctx, old, engine.Actor{Name: "curator", Batch: fmt.Sprintf("link-%d", i/100)}, "supersede"); err != nil {
				return err
			}
		}
		for i := range 2000 {
			status := engine.ProposalPending
			if i%2 == 1 {
				status = engine.ProposalApplied
			}
			p := &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: int64(10_000 + i), Proposer: engine.ProposerHeartbeat,
				Confidence: 1, Reason: "unused", Status: status, CreatedAt: testNow}
			if err := q.InsertProposal(ctx, p); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	m := newModel(ctx, Deps{Engine: openEngine(b, s), Store: s, Now: func() time.Time { return testNow }, NoColor: true})
	p := m.panes[m.paneIndex(paneCurate)].(curatePane)
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"reference-page", func() error { _, _, err := s.FindMemories(ctx, engine.MemoryFilter{Limit: 200}); return err }},
		{"reload", func() error {
			_, cmd := p.reload()
			msg := cmd().(paneMsg).Msg.(curateLoadedMsg)
			if msg.Err == nil && (len(msg.Batches) != 11 || len(msg.Links.Links) != 1000) {
				return fmt.Errorf("%d batches, %d links", len(msg.Batches), len(msg.Links.Links))
			}
			return msg.Err
		}},
		{"proposals", func() error { _, err := s.FindProposals(ctx, engine.ProposalFilter{}); return err }},
		{"batches", func() error { _, err := curate.BatchHistory(ctx, s, curateHistoryLimit); return err }},
		{"held", func() error {
			_, _, err := s.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
			return err
		}},
		{"superseded", func() error { _, err := loadSupersededLinks(ctx, s); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report()
		})
	}
}
