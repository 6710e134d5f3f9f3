package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// The texts the erased memory held over its life: captured, then updated
// twice. Each must be gone, as a whole and by its distinctive part.
var erasedTexts = []string{
	"Jun's gym locker code is zebra-orchid-5521, top row",
	"Jun's gym locker code is zebra-orchid-5522, top row",
	"준의 사물함 비밀 코드는 얼룩말-난초-5523 이다",
}

const erasedMark = "zebra-orchid"

// Issue 31's acceptance of erase, on both stores: a memory captured,
// recalled (trace stored), judged (a proposal quoting it), held once in
// the review queue, in a golden run's record, exported (an artifact) and
// updated several times is erased: no byte of any of its texts is left in
// any table (on SQLite: in the file and the WAL, read raw), a tombstone
// says who, when and why, the erasure cannot be rolled back and rolling
// back an earlier batch of it does not bring it back; another memory is
// untouched.
func TestEraseLeavesNoByte(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := context.Background()
		path := b.Fresh(t)
		db, err := store.Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		keep := newMemory("keep", "Mina prefers green tea in the afternoon")
		must(t, db.InsertMemory(ctx, keep, engine.Actor{Name: "t", Batch: "b0"}))
		m := newMemory("m1", erasedTexts[0])
		must(t, db.InsertMemory(ctx, m, engine.Actor{Name: "capture", Batch: "capture-1"}))
		must(t, db.InsertCapture(ctx, &engine.CaptureRecord{MessageID: "m1", Session: "s1", Role: "user", Text: "remember: " + erasedTexts[0],
			At: m.CreatedAt, Outcome: "stored", MemoryID: m.ID, Trail: []engine.Decision{{Layer: "judge", Verdict: "store", Reason: "quotes " + erasedTexts[0]}}}))
		// A duplicate offered later, dropped, that never linked to it.
		must(t, db.InsertCapture(ctx, &engine.CaptureRecord{MessageID: "m1b", Session: "s2", Role: "user", Text: erasedTexts[0],
			At: m.CreatedAt, Outcome: "dropped", DroppedBy: "dedupe", Reason: "near-duplicate"}))
		for i, text := range erasedTexts[1:] {
			m.Content, m.Hash = text, engine.ContentHash(text)
			m.Embedding = []float32{float32(i), 1, 2, 3}
			must(t, db.UpdateMemory(ctx, m, engine.Actor{Name: "curator", Batch: "curator-" + string(rune('a'+i))}, "update"))
		}
		trace, _ := json.Marshal(map[string]any{"query": "locker", "stages": []any{map[string]any{"name": "candidates",
			"items": []any{map[string]any{"id": m.ID, "text": m.Content}}}}, "prompt": "- " + m.Content})
		must(t, db.SaveTrace(ctx, &engine.StoredTrace{Query: "locker code", Source: "mcp", At: m.CreatedAt, Trace: trace}, 10))
		other, _ := json.Marshal(map[string]any{"query": "tea", "stages": []any{map[string]any{"name": "candidates",
			"items": []any{map[string]any{"id": keep.ID, "text": keep.Content}}}}})
		must(t, db.SaveTrace(ctx, &engine.StoredTrace{Query: "tea", Source: "mcp", At: m.CreatedAt, Trace: other}, 10))
		must(t, db.InsertProposal(ctx, &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: "judge",
			Reason: "judge says: " + erasedTexts[1] + " looks private", Status: engine.ProposalPending, CreatedAt: m.CreatedAt, DecidedAt: m.CreatedAt}))
		must(t, db.SaveReview(ctx, &engine.ReviewItem{MessageID: "m1c", Session: "s1", Role: "user", Text: erasedTexts[2],
			At: m.CreatedAt, Reason: "invalid answer", Status: "held", Attempts: 1, CreatedAt: m.CreatedAt, UpdatedAt: m.CreatedAt}))
		must(t, db.Update(ctx, func(q engine.Queries) error { return nil }))
		execRaw(t, db, path, `INSERT INTO golden_runs (id, file, config_hash, started_at, summary, results) VALUES ('run1', 'set.yaml', '', '2026-01-01T00:00:00Z', '{}', ?)`,
			`{"probes":[{"survivors":[{"id":2,"text":"`+erasedTexts[1]+`"}]}]}`)
		must(t, db.RecordArtifact(ctx, engine.Artifact{Kind: engine.ArtifactExport, Path: "/tmp/export-before"}))

		rep, err := db.EraseMemories(ctx, engine.EraseRequest{IDs: []int64{m.ID}, Actor: "curator", Reason: "the user asked"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Erased) != 1 || rep.Erased[0].TextHash == "" || rep.Erased[0].Salt == "" || rep.Reversible {
			t.Fatalf("report %+v", rep)
		}
		if len(rep.Artifacts) != 1 || rep.Artifacts[0].Path != "/tmp/export-before" {
			t.Errorf("artifacts %+v, want the export written before", rep.Artifacts)
		}
		if len(rep.Pending) > 0 && b.Name == "sqlite" {
			t.Errorf("SQLite erasure left work pending: %v", rep.Pending)
		}
		for _, text := range append(erasedTexts, erasedMark, "얼룩말-난초") {
			if where := findBytes(t, db, path, b.Name, text); where != "" {
				t.Errorf("%q survives the erasure in %s", text, where)
			}
		}
		got, err := db.GetMemory(ctx, m.ID)
		must(t, err)
		if got.Status != engine.StatusErased || got.Content != engine.ErasedText || got.Embedding != nil {
			t.Errorf("tombstone row %+v", got)
		}
		if k, err := db.GetMemory(ctx, keep.ID); err != nil || k.Content != keep.Content {
			t.Errorf("the other memory changed: %+v %v", k, err)
		}
		if ts, err := db.Tombstones(ctx, m.ID); err != nil || len(ts) != 1 || ts[0].Reason != "the user asked" || ts[0].Actor != "curator" {
			t.Errorf("tombstones %+v %v", ts, err)
		}
		if ts, _ := db.FindTraces(ctx, 10); len(ts) != 1 || ts[0].Query != "tea" {
			t.Errorf("traces after erase: %d, want only the one that names no erased memory", len(ts))
		}
		bs, err := db.Batches(ctx, 0)
		must(t, err)
		found := false
		for _, bi := range bs {
			if bi.Batch == rep.Batch {
				found = true
				if bi.CanRollback || bi.Effect.Erased != 1 {
					t.Errorf("erase batch %+v: want erased 1, cannot roll back", bi)
				}
			}
		}
		if !found {
			t.Errorf("batches do not list the erasure %s", rep.Batch)
		}
		if _, err := db.RollbackBatch(ctx, rep.Batch, "curator"); engine.ErrorCode(err) != engine.ECONFLICT {
			t.Errorf("rollback of the erasure: %v, want refused", err)
		}
		for _, earlier := range []string{"capture-1", "curator-a", "curator-b"} {
			if _, err := db.RollbackBatch(ctx, earlier, "curator"); err == nil {
				t.Errorf("rollback of %s went through", earlier)
			}
		}
		if got, _ := db.GetMemory(ctx, m.ID); got.Status != engine.StatusErased || got.Content != engine.ErasedText {
			t.Errorf("a rollback brought the memory back: %+v", got)
		}
		if _, err := db.EraseMemories(ctx, engine.EraseRequest{IDs: []int64{m.ID}, Actor: "curator", Reason: "again"}); engine.ErrorCode(err) != engine.ECONFLICT {
			t.Errorf("erasing twice: %v", err)
		}
	})
}

func execRaw(t *testing.T, db *store.DB, path, query string, args ...any) {
	t.Helper()
	raw := rawConn(t, path)
	if strings.HasPrefix(path, "postgres") {
		query = strings.Replace(query, "?", "$1", 1)
	}
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}

// rawConn opens the database behind the store as a plain connection.
func rawConn(t *testing.T, path string) *sql.DB {
	t.Helper()
	driver := "sqlite3"
	if strings.HasPrefix(path, "postgres") {
		driver = "pgx"
	}
	raw, err := sql.Open(driver, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// findBytes says where text survives: on SQLite the raw bytes of the file
// and its WAL; on PostgreSQL every row of every table of the space, as text.
func findBytes(t *testing.T, db *store.DB, path, backend, text string) string {
	t.Helper()
	if backend == "sqlite" {
		for _, p := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(p)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(text)) {
				return p
			}
		}
		return ""
	}
	raw := rawConn(t, path)
	rows, err := raw.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found %d tables in the space", len(tables))
	}
	for _, tb := range tables {
		var n int
		if err := raw.QueryRow(`SELECT count(*) FROM "`+tb+`" r WHERE strpos(r::text, $1) > 0`, text).Scan(&n); err != nil {
			t.Fatalf("%s: %v", tb, err)
		}
		if n > 0 {
			return "table " + tb
		}
	}
	return ""
}
