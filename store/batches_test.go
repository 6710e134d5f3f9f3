package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// writeEffectBatches writes four batches: b0 loads two memories (COPY on
// PostgreSQL), b1 creates three memories, b2
// retypes one, quarantines one and records a keep decision on the third,
// b3 moves one to another tier.
func writeEffectBatches(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	must(t, db.LoadMemories(ctx, []*engine.Memory{newMemory("x", "loaded x"), newMemory("y", "loaded y")}, engine.Actor{Name: "bench", Batch: "b0"}))
	must(t, db.Update(ctx, func(q engine.Queries) error {
		for _, k := range []string{"a", "b", "c"} {
			if err := q.InsertMemory(ctx, newMemory(k, "memory "+k+": 사용자는 녹차를 좋아한다"), engine.Actor{Name: "capture", Batch: "b1"}); err != nil {
				return err
			}
		}
		return nil
	}))
	change := func(batch string, id int64, action string, edit func(m *engine.Memory)) {
		must(t, db.Update(ctx, func(q engine.Queries) error {
			m, err := q.GetMemory(ctx, id)
			if err != nil {
				return err
			}
			edit(m)
			return q.UpdateMemory(ctx, m, engine.Actor{Name: "curator", Batch: batch}, action)
		}))
	}
	change("b2", 3, "retype", func(m *engine.Memory) { m.Type = "note" })
	change("b2", 4, "quarantine", func(m *engine.Memory) { m.Status = engine.StatusQuarantined })
	change("b2", 5, engine.ProposalKeep, func(*engine.Memory) {})
	change("b3", 5, "demote", func(m *engine.Memory) { m.Tier = engine.TierCold })
}

// checkEffects asserts the effects writeEffectBatches' batches report.
func checkEffects(t *testing.T, db *store.DB) {
	t.Helper()
	bs, err := db.Batches(context.Background(), 0)
	must(t, err)
	want := map[string]engine.BatchEffect{
		"b0": {Created: 2},
		"b1": {Created: 3},
		"b2": {Retyped: 1, Quarantined: 1, Kept: 1},
		"b3": {Moved: 1},
	}
	if len(bs) != len(want) {
		t.Fatalf("batches = %+v, want %d", bs, len(want))
	}
	for _, b := range bs {
		if b.Effect != want[b.Batch] {
			t.Errorf("batch %s effect = %+v, want %+v", b.Batch, b.Effect, want[b.Batch])
		}
	}
	// Limited to the newest two, the effects are the same.
	bs, err = db.Batches(context.Background(), 2)
	must(t, err)
	if len(bs) != 2 || bs[0].Batch != "b3" || bs[1].Batch != "b2" || bs[1].Effect != want["b2"] {
		t.Errorf("newest two = %+v", bs)
	}
}

// rawExec runs statements on the database behind dsn directly (SQLite
// file or PostgreSQL space), as another program or an older memtrace would.
func rawExec(t *testing.T, be storetest.Backend, dsn, space string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	var raw *sql.DB
	if be.Name == "postgres" {
		cfg, err := pgx.ParseConfig(storetest.PGBase(t))
		must(t, err)
		raw = stdlib.OpenDB(*cfg)
		stmts = append([]string{`SET search_path TO ` + pgx.Identifier{space}.Sanitize()}, stmts...)
	} else {
		var err error
		raw, err = sql.Open("sqlite3", dsn)
		must(t, err)
	}
	defer raw.Close()
	conn, err := raw.Conn(ctx)
	must(t, err)
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// A batch's effect is counted from the change each audit row names, not
// by decoding the rows: with every row's JSON unreadable the history
// still says what each batch did.
func TestBatchEffectsReadNoRowJSON(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		dsn := be.Fresh(t)
		db, err := store.Open(context.Background(), dsn, newClock().Now)
		must(t, err)
		writeEffectBatches(t, db)
		checkEffects(t, db)
		space := db.Space()
		must(t, db.Close())
		rawExec(t, be, dsn, space, `UPDATE audit SET before = '{', after = '{'`)
		db, err = store.Open(context.Background(), dsn, newClock().Now)
		must(t, err)
		defer db.Close()
		checkEffects(t, db)
	})
}

// A database written before migration 17 has audit rows without a change
// kind: the migration's Go step classifies them with
// engine.ClassifyChange, so their batches report what they did.
func TestMigration17ClassifiesOldAudit(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		dsn := be.Fresh(t)
		db, err := store.Open(context.Background(), dsn, newClock().Now)
		must(t, err)
		writeEffectBatches(t, db)
		space := db.Space()
		must(t, db.Close())
		rawExec(t, be, dsn, space,
			`DROP INDEX audit_batch_change`,
			`ALTER TABLE audit DROP COLUMN change_kind`,
			`DELETE FROM migrations WHERE name = '0017_audit_change.sql'`)
		db, err = store.Open(context.Background(), dsn, newClock().Now)
		must(t, err)
		defer db.Close()
		checkEffects(t, db)
	})
}

// A batch written in two transactions with another between them is
// listed by its newest row: the newest first, each once, with every row
// counted, limited or not.
func TestBatchesNewestFirstAcrossInterleaving(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		db := be.MustOpenClock(t, newClock().Now)
		ctx := context.Background()
		n := 0
		write := func(batch string, k int) {
			must(t, db.Update(ctx, func(q engine.Queries) error {
				for range k {
					n++
					key := fmt.Sprintf("k%d", n)
					if err := q.InsertMemory(ctx, newMemory(key, "memory "+key), engine.Actor{Name: "capture", Batch: batch}); err != nil {
						return err
					}
				}
				return nil
			}))
		}
		write("a", 3)
		write("b", 2)
		write("a", 4)
		write("c", 1)
		write("b", 1)
		for _, limit := range []int{0, 1, 2, 3, 4} {
			bs, err := db.Batches(ctx, limit)
			must(t, err)
			want := []struct {
				name string
				rows int
			}{{"b", 3}, {"c", 1}, {"a", 7}}
			if limit > 0 && limit < len(want) {
				want = want[:limit]
			}
			if len(bs) != len(want) {
				t.Fatalf("limit %d: %d batches, want %d: %+v", limit, len(bs), len(want), bs)
			}
			for i, w := range want {
				if bs[i].Batch != w.name || bs[i].Rows != w.rows || bs[i].Effect.Created != w.rows {
					t.Errorf("limit %d: #%d = %s (%d rows, %+v), want %s (%d rows)", limit, i, bs[i].Batch, bs[i].Rows, bs[i].Effect, w.name, w.rows)
				}
			}
		}
	})
}
