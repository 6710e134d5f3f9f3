package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"memtrace/engine"
)

var _ engine.Eraser = (*DB)(nil)

// EraseMemories erases the memories of req in one write transaction
// (eraseMemories), then compacts the database so that no freed page keeps
// a byte of what was erased: on SQLite the transaction runs with
// secure_delete on (freed cells and pages are zeroed), then VACUUM rebuilds
// the file (pages freed before the erasure, with secure_delete off, are
// gone with it) and wal_checkpoint(TRUNCATE) empties the WAL; on
// PostgreSQL VACUUM FULL rewrites the tables it touched (plain VACUUM only
// marks dead rows reusable: their bytes stay on disk until overwritten).
func (db *DB) EraseMemories(ctx context.Context, req engine.EraseRequest) (*engine.EraseReport, error) {
	if len(req.IDs) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "nothing to erase: name memories by id, key or a search")
	}
	if strings.TrimSpace(req.Actor) == "" || strings.TrimSpace(req.Reason) == "" {
		return nil, engine.Errorf(engine.EINVALID, "an erasure needs who (actor) and why (--reason): the tombstone keeps both")
	}
	if !db.pg {
		// The writer pool is one connection: the pragma holds for the
		// transaction below, and is put back after the compaction.
		if _, err := db.writer.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
			return nil, txError(db.path, "secure_delete", err)
		}
		defer db.writer.ExecContext(context.WithoutCancel(ctx), `PRAGMA secure_delete = OFF`)
	}
	var texts []string
	rep, err := writeValue(ctx, db, func(tx *Tx) (rep *engine.EraseReport, err error) {
		rep, texts, err = tx.eraseMemories(ctx, req)
		return rep, err
	})
	if err != nil {
		return nil, err
	}
	db.compactAfterErase(ctx, rep)
	switch existed, err := db.removeVectorFile(); {
	case err != nil:
		rep.Pending = append(rep.Pending, fmt.Sprintf("%v: delete it by hand; until then it may hold the erased memories' vectors (memtrace writes it anew)", err))
	case existed:
		rep.Compaction = append(rep.Compaction, "the vector file beside the database was deleted: no erased vector stays in it (the next open writes it anew)")
	}
	switch existed, err := db.removeLexiconFile(); {
	case err != nil:
		rep.Pending = append(rep.Pending, fmt.Sprintf("%v: delete it by hand; until then it may hold the erased memories' terms (memtrace writes it anew)", err))
	case existed:
		rep.Compaction = append(rep.Compaction, "the lexicon file beside the database was deleted: no erased memory's terms stay in it (the next open writes it anew)")
	}
	switch existed, err := db.removeColumnsFile(); {
	case err != nil:
		rep.Pending = append(rep.Pending, fmt.Sprintf("%v: delete it by hand; until then it may hold the erased memories' keys, sessions and hashes (memtrace writes it anew)", err))
	case existed:
		rep.Compaction = append(rep.Compaction, "the column file beside the database was deleted: no erased memory's key, session or hash stays in it (the next load writes it anew)")
	}
	scrubJudgeCaches(rep, texts)
	return rep, nil
}

// compactAfterErase removes what the erased rows left in free space, and
// says in rep what it did and what is still to be done.
func (db *DB) compactAfterErase(ctx context.Context, rep *engine.EraseReport) {
	if db.pg {
		tables := "memories, audit, captures, review_queue, traces, golden_runs, proposals, corrections, lesson_sightings, memory_sources"
		if _, err := db.writer.ExecContext(ctx, `VACUUM (FULL) `+tables); err != nil {
			rep.Pending = append(rep.Pending, fmt.Sprintf("VACUUM FULL failed (%v): run `VACUUM (FULL) %s;` in this space as its owner, when no session holds the tables; until then the erased rows' old versions stay in the tables' files", err, tables))
		} else {
			rep.Compaction = append(rep.Compaction, "VACUUM FULL of "+tables+": the tables were rewritten without the erased rows' old versions")
		}
		rep.Pending = append(rep.Pending, "PostgreSQL's write-ahead log segments, replicas and base backups still hold the old row versions until the server recycles them (after a checkpoint) or you rebuild them")
		return
	}
	rep.Compaction = append(rep.Compaction, "secure_delete: the erasure's freed cells and pages were zeroed")
	if _, err := db.writer.ExecContext(ctx, `VACUUM`); err != nil {
		rep.Pending = append(rep.Pending, fmt.Sprintf("VACUUM failed (%v): run `memtrace erase --compact` when no other memtrace holds the file; pages freed before the erasure may still hold its text", err))
	} else {
		rep.Compaction = append(rep.Compaction, "VACUUM: the file was rebuilt, no free page is left")
	}
	var busy, logFrames, done int
	err := db.writer.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done)
	switch {
	case err != nil:
		rep.Pending = append(rep.Pending, fmt.Sprintf("WAL checkpoint failed (%v): close every memtrace on this file and run `memtrace erase --compact`", err))
	case busy != 0:
		rep.Pending = append(rep.Pending, "WAL not truncated: another connection was reading; close every memtrace on this file and run `memtrace erase --compact`")
	default:
		rep.Compaction = append(rep.Compaction, "wal_checkpoint(TRUNCATE): the WAL was checkpointed and emptied")
	}
}

// Compact runs the compaction of an erasure again (VACUUM and a truncating
// WAL checkpoint, or VACUUM FULL on PostgreSQL), for when the one after an
// erasure could not finish.
func (db *DB) Compact(ctx context.Context) (*engine.EraseReport, error) {
	rep := &engine.EraseReport{Scrubbed: map[string]int{}}
	db.compactAfterErase(ctx, rep)
	return rep, nil
}

// eraseMemories is the erasure's transaction: per memory, the texts it held
// (its content now and in every audit row, the messages it was captured
// from) are removed from every table that can hold them, its row becomes a
// tombstone audited under one erase batch, and a row in erasures keeps
// who, when, why and a salted hash. texts are the erased texts, for the
// files outside the database (scrubJudgeCaches).
func (tx *Tx) eraseMemories(ctx context.Context, req engine.EraseRequest) (rep *engine.EraseReport, texts []string, err error) {
	batch, err := tx.NextBatchID(ctx, engine.BatchErase)
	if err != nil {
		return nil, nil, err
	}
	rep = &engine.EraseReport{Batch: batch, Scrubbed: map[string]int{}}
	ids := slices.Clone(req.IDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var needles []string
	for _, id := range ids {
		m, err := tx.GetMemory(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if m.Status == engine.StatusErased {
			return nil, nil, engine.Errorf(engine.ECONFLICT, "memory %d was already erased; `memtrace show %d` shows its tombstone", id, id)
		}
		texts, err := tx.textsOf(ctx, m)
		if err != nil {
			return nil, nil, err
		}
		needles = append(needles, texts...)
		if err := tx.scrubAudit(ctx, id, rep); err != nil {
			return nil, nil, err
		}
		ts, err := tx.tombstone(ctx, m, batch, req)
		if err != nil {
			return nil, nil, err
		}
		rep.Erased = append(rep.Erased, ts)
	}
	if err := tx.scrubLinked(ctx, ids, rep); err != nil {
		return nil, nil, err
	}
	if err := tx.scrubTexts(ctx, needleForms(needles), rep); err != nil {
		return nil, nil, err
	}
	if err := tx.dropTraces(ctx, ids, needleForms(needles), rep); err != nil {
		return nil, nil, err
	}
	rep.Artifacts, err = tx.artifacts(ctx)
	return rep, needles, err
}

// textsOf is every text memory m held: its content now and in each audit
// row, and the messages it was captured from.
func (tx *Tx) textsOf(ctx context.Context, m *engine.Memory) ([]string, error) {
	texts := []string{m.Content}
	rows, err := tx.queryAudit(ctx, `WHERE memory_id = ? ORDER BY id`, m.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		for _, s := range []*engine.Memory{r.Before, r.After} {
			if s != nil {
				texts = append(texts, s.Content)
			}
		}
	}
	caps, err := queryAll(ctx, tx, "read captures", func(s scanner) (string, error) {
		var t string
		return t, s.Scan(&t)
	}, `SELECT text FROM captures WHERE memory_id = ? OR (message_id <> '' AND message_id = ?)`, m.ID, m.Key)
	if err != nil {
		return nil, err
	}
	return append(texts, caps...), nil
}

// scrubAudit rewrites the audit rows of memory id: the content of before
// and after becomes engine.ErasedText and the saved vectors go. The rows
// stay, so the history still shows what was done, when and by whom.
func (tx *Tx) scrubAudit(ctx context.Context, id int64, rep *engine.EraseReport) error {
	rows, err := tx.queryAudit(ctx, `WHERE memory_id = ? ORDER BY id`, id)
	if err != nil {
		return err
	}
	for _, r := range rows {
		before, err := auditJSON(scrubbed(r.Before))
		if err != nil {
			return err
		}
		after, err := auditJSON(scrubbed(r.After))
		if err != nil {
			return err
		}
		if _, err := tx.tx.ExecContext(ctx, `UPDATE audit SET before = ?, after = ?, before_embedding = NULL, before_embedder = NULL WHERE id = ?`,
			before, after, r.ID); err != nil {
			return fmt.Errorf("erase audit %d: %w", r.ID, err)
		}
		rep.Scrubbed["audit"]++
	}
	return nil
}

// scrubbed is m without its text, hash and vector (nil stays nil).
func scrubbed(m *engine.Memory) *engine.Memory {
	if m == nil {
		return nil
	}
	c := *m
	c.Content, c.Hash, c.Embedding, c.Embedder = engine.ErasedText, "", nil, ""
	return &c
}

// tombstone turns memory m into its tombstone and records the erasure.
func (tx *Tx) tombstone(ctx context.Context, m *engine.Memory, batch string, req engine.EraseRequest) (engine.Tombstone, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return engine.Tombstone{}, fmt.Errorf("erase: salt: %w", err)
	}
	sum := sha256.Sum256(append(slices.Clone(salt), m.Content...))
	ts := engine.Tombstone{MemoryID: m.ID, Key: m.Key, Batch: batch, Actor: req.Actor, Reason: req.Reason,
		Salt: hex.EncodeToString(salt), TextHash: hex.EncodeToString(sum[:]), At: tx.now().UTC()}
	before := scrubbed(m)
	after := scrubbed(m)
	after.Status = engine.StatusErased
	if err := tx.writeMemory(ctx, after); err != nil {
		return ts, err
	}
	if err := tx.writeAudit(ctx, auditRow{Batch: batch, Actor: req.Actor, Action: "erase", MemoryID: m.ID, Before: before, After: after}); err != nil {
		return ts, err
	}
	if _, err := tx.tx.ExecContext(ctx, `INSERT INTO erasures (batch, memory_id, memory_key, actor, reason, salt, text_hash, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, batch, m.ID, m.Key, ts.Actor, ts.Reason, ts.Salt, ts.TextHash, formatTime(ts.At)); err != nil {
		return ts, fmt.Errorf("erase: tombstone: %w", err)
	}
	return ts, nil
}

// scrubLinked rewrites the rows that belong to the erased memories whatever
// text they hold: the captures and held reviews that made them, the source
// metadata of imported ones.
func (tx *Tx) scrubLinked(ctx context.Context, ids []int64, rep *engine.EraseReport) error {
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	in := `IN (SELECT value FROM json_each(?))`
	for _, u := range []struct{ table, set string }{
		{"captures", `text = '` + engine.ErasedText + `', trail = '[]'`},
		{"review_queue", `text = '` + engine.ErasedText + `', note = ''`},
		{"memory_sources", `metadata = '{}'`},
	} {
		res, err := tx.tx.ExecContext(ctx, `UPDATE `+u.table+` SET `+u.set+` WHERE memory_id `+in, string(list))
		if err != nil {
			return fmt.Errorf("erase %s: %w", u.table, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			rep.Scrubbed[u.table] += int(n)
		}
	}
	return nil
}

// minNeedle is the shortest text (in bytes) searched for in rows that are
// not the erased memories' own: a shorter one ("ok") would rewrite unrelated
// text; such a memory's own rows are still scrubbed.
const minNeedle = 8

// needleForms is each distinct text long enough to search for, as written
// and as it reads inside a JSON string (trails, verdicts, golden runs and
// traces are JSON), longest first so that a text inside another is found
// as part of the longer one.
func needleForms(texts []string) []string {
	var out []string
	for _, t := range texts {
		if len(t) < minNeedle || t == engine.ErasedText {
			continue
		}
		out = append(out, t)
		if b, err := json.Marshal(t); err == nil {
			out = append(out, string(b[1:len(b)-1]))
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// scrubbedColumns are the text columns outside the erased rows that may
// quote a memory's text: the capture log of other messages (a duplicate
// dropped as such), the judge's verdicts and reasons, lessons, golden runs.
var scrubbedColumns = []struct {
	table string
	cols  []string
}{
	{"captures", []string{"text", "trail", "reason"}},
	{"review_queue", []string{"text", "note", "reason"}},
	{"proposals", []string{"verdict", "reason", "reject_note"}},
	{"corrections", []string{"context", "correction", "lesson", "occurrences"}},
	{"lesson_sightings", []string{"text"}},
	{"golden_runs", []string{"summary", "results"}},
	{"memory_sources", []string{"metadata", "position"}},
}

// scrubTexts replaces every needle in the scrubbed columns with
// engine.ErasedText.
func (tx *Tx) scrubTexts(ctx context.Context, needles []string, rep *engine.EraseReport) error {
	if len(needles) == 0 {
		return nil
	}
	for _, sc := range scrubbedColumns {
		key := "id"
		if sc.table == "memory_sources" {
			key = "memory_id"
		}
		var conds []string
		var args []any
		for _, c := range sc.cols {
			for _, n := range needles {
				conds = append(conds, `instr(COALESCE(`+c+`, ''), ?) > 0`)
				args = append(args, n)
			}
		}
		q := `SELECT ` + key + `, ` + strings.Join(coalesced(sc.cols), ", ") + ` FROM ` + sc.table + ` WHERE ` + strings.Join(conds, " OR ")
		type hit struct {
			id   any
			vals []sql.NullString
		}
		hits, err := queryAll(ctx, tx, "erase "+sc.table, func(s scanner) (hit, error) {
			h := hit{vals: make([]sql.NullString, len(sc.cols))}
			dst := []any{&h.id}
			for i := range h.vals {
				dst = append(dst, &h.vals[i])
			}
			err := s.Scan(dst...)
			if b, ok := h.id.([]byte); ok { // golden_runs: a text id
				h.id = string(b)
			}
			return h, err
		}, q, args...)
		if err != nil {
			return err
		}
		for _, h := range hits {
			set := make([]string, len(sc.cols))
			vals := make([]any, 0, len(sc.cols)+1)
			for i, c := range sc.cols {
				set[i] = c + ` = ?`
				vals = append(vals, replaceAll(h.vals[i].String, needles))
			}
			vals = append(vals, h.id)
			if _, err := tx.tx.ExecContext(ctx, `UPDATE `+sc.table+` SET `+strings.Join(set, ", ")+` WHERE `+key+` = ?`, vals...); err != nil {
				return fmt.Errorf("erase %s: %w", sc.table, err)
			}
			rep.Scrubbed[sc.table]++
		}
	}
	return nil
}

func coalesced(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = `COALESCE(` + c + `, '')`
	}
	return out
}

// replaceAll replaces each needle in s (longest first) with ErasedText.
func replaceAll(s string, needles []string) string {
	for _, n := range needles {
		s = strings.ReplaceAll(s, n, engine.ErasedText)
	}
	return s
}

// traceRefs are the memory ids a stored trace names.
type traceRefs struct {
	Stages []struct {
		Items []struct {
			ID int64 `json:"id"`
		} `json:"items"`
	} `json:"stages"`
	Survivors []struct {
		ID int64 `json:"id"`
	} `json:"survivors"`
}

// dropTraces removes the stored traces that name an erased memory or quote
// its text. Traces are diagnostics the store already prunes to the newest
// few; a trace cut to pieces would tell the next reader nothing true.
func (tx *Tx) dropTraces(ctx context.Context, ids []int64, needles []string, rep *engine.EraseReport) error {
	type row struct {
		id           int64
		query, trace string
	}
	rows, err := queryAll(ctx, tx, "erase traces", func(s scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.query, &r.trace)
	}, `SELECT id, query, trace FROM traces ORDER BY id`)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !namesAny(r.trace, ids) && !containsAny(r.query+"\x00"+r.trace, needles) {
			continue
		}
		if _, err := tx.tx.ExecContext(ctx, `DELETE FROM traces WHERE id = ?`, r.id); err != nil {
			return fmt.Errorf("erase trace %d: %w", r.id, err)
		}
		rep.Scrubbed["traces"]++
	}
	return nil
}

func namesAny(trace string, ids []int64) bool {
	var refs traceRefs
	if json.Unmarshal([]byte(trace), &refs) != nil {
		return false
	}
	for _, st := range refs.Stages {
		for _, it := range st.Items {
			if slices.Contains(ids, it.ID) {
				return true
			}
		}
	}
	for _, s := range refs.Survivors {
		if slices.Contains(ids, s.ID) {
			return true
		}
	}
	return false
}

func containsAny(s string, needles []string) bool {
	for _, n := range needles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}
