package tiers_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// BenchmarkHeartbeatPass measures a heartbeat pass over 10,000 memories
// with nothing new to propose (the steady state of `heartbeat --every 4h`),
// and an export of the Markdown tiers.
func BenchmarkHeartbeatPass(b *testing.B) {
	ctx := context.Background()
	c := &tierstest.Clock{T: tierstest.Epoch}
	db := storetest.MustOpenClock(b, c.Now)
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: c.Now})
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	err = e.Update(ctx, func(q engine.Queries) error {
		for i := range n {
			m := &engine.Memory{Key: fmt.Sprintf("b%05d", i), Content: fmt.Sprintf("memory %d about project %d and its conventions", i, i%7),
				Scope: engine.ProjectScope(fmt.Sprintf("p%d", i%7)), CreatedAt: tierstest.Epoch.Add(-time.Duration(i%120) * 24 * time.Hour)}
			if err := e.PrepareMemory(ctx, m); err != nil {
				return err
			}
			if err := q.InsertMemory(ctx, m, engine.Actor{Name: "bench"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Run("heartbeat", func(b *testing.B) {
		for b.Loop() {
			r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
			if err != nil || len(r.Proposals) != 0 {
				b.Fatalf("steady-state pass proposed %d (%v)", len(r.Proposals), err)
			}
		}
	})
	b.Run("export-md", func(b *testing.B) {
		dir := b.TempDir()
		for b.Loop() {
			if _, err := tiers.ExportMarkdown(ctx, e, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
