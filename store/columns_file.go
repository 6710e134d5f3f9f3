package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/store/colfile"
)

// The column file (store/colfile) beside a SQLite database: every memory's
// fields but its text and vector, as the last full load read them. A load
// that finds it whole and current reads from SQLite only each row's id,
// seq and content (columnQuery), takes the other fields from the file for
// every row whose id, seq and content are unchanged, and reads any other
// row whole (readUnpacked, on the same connection: the same snapshot). A
// load that finds none, or one of another build, one that predates an
// erasure or one too many rows were written after, reads every column and
// writes the file anew as it streams the rows.

// columnLoad is one load's use of the column file; nil: none.
type columnLoad struct {
	path     string
	perm     os.FileMode
	file     *colfile.File   // read: the load takes the fields from it
	w        *colfile.Writer // or written: the load adds every row to it
	erasures int64           // the erasures when the load began
	misses   int             // rows the file did not hold as they are
	rows     int
}

// columnFilePath is the column file of db, "" where there is none
// (PostgreSQL, an in-memory or URI database, colfile.FileEnv=off).
func (db *DB) columnFilePath() string {
	if os.Getenv(colfile.FileEnv) == "off" || db.pg || db.path == "" || strings.HasPrefix(db.path, "file:") || strings.Contains(db.path, ":memory:") {
		return ""
	}
	return db.path + colfile.Suffix
}

// startColumnLoad decides, on the load's connection (in its snapshot),
// whether the load reads the column file, writes it or neither.
func (db *DB) startColumnLoad(ctx context.Context, c *sqlite3.SQLiteConn) *columnLoad {
	path := db.columnFilePath()
	if path == "" {
		return nil
	}
	f, _ := colfile.Open(path)
	var since int64 = -1
	if f != nil {
		since = f.MaxSeq
	}
	total, changed, erasures, err := memoryCounts(ctx, c, since)
	if err != nil {
		f.Close()
		return nil
	}
	slack := max(256, total/32)
	purge := f != nil && f.Erasures != erasures
	if f != nil && (purge || changed > slack || f.Rows() > total+slack) {
		f.Close()
		f = nil
	}
	cl := &columnLoad{path: path, perm: db.FilePerm(), file: f, erasures: erasures}
	if f == nil && (total >= colfile.MinRows || os.Getenv(colfile.FileEnv) == "on") {
		cl.w = colfile.NewWriter(total)
	}
	if cl.file == nil && cl.w == nil {
		if purge {
			_ = colfile.Remove(path)
		}
		return nil
	}
	return cl
}

// memoryCounts counts the memories, those written after seq since, and the
// erasures.
func memoryCounts(ctx context.Context, c *sqlite3.SQLiteConn, since int64) (total, changed int, erasures int64, err error) {
	rows, err := c.QueryContext(ctx, `SELECT count(*), count(CASE WHEN seq > ? THEN 1 END), (SELECT count(*) FROM erasures) FROM memories`,
		[]driver.NamedValue{{Ordinal: 1, Value: since}})
	if err != nil {
		return 0, 0, 0, err
	}
	defer rows.Close()
	vals := make([]driver.Value, 3)
	if err := rows.Next(vals); err != nil {
		return 0, 0, 0, err
	}
	t, _ := vals[0].(int64)
	n, _ := vals[1].(int64)
	erasures, _ = vals[2].(int64)
	return int(t), int(n), erasures, nil
}

// reading reports whether the load takes the fields from the file.
func (cl *columnLoad) reading() bool { return cl != nil && cl.file != nil }

// columnQuery is the load's query when it reads the file: the columns the
// file does not hold, the vector blob where the vector file holds it
// (blobs false) replaced by NULL.
func columnQuery(blobs bool) string {
	if blobs {
		return `SELECT id, seq, content, embedding FROM memories ORDER BY id`
	}
	return `SELECT id, seq, content, NULL FROM memories ORDER BY id`
}

// memory decodes one columnQuery row: from the file when it holds the row
// as it is, else read whole from the database on c. whole reports the
// latter (the memory then carries its stored vector blob, if any).
func (cl *columnLoad) memory(ctx context.Context, c *sqlite3.SQLiteConn, v []driver.Value) (m *engine.Memory, whole bool, err error) {
	cl.rows++
	var d valueDecoder
	id, seq, content := d.int64(v[0]), d.int64(v[1]), d.string(v[2])
	blob, isBlob := v[3].([]byte)
	if v[3] != nil && !isBlob {
		d.err = fmt.Errorf("embedding is %T, not a blob", v[3])
	}
	if d.err != nil {
		return nil, false, fmt.Errorf("memory %v: %w", v[0], d.err)
	}
	r, ok := cl.file.Row(id, seq, content)
	if !ok {
		cl.misses++
		m, err := readUnpacked(ctx, c, v[0])
		return m, true, err
	}
	m = &engine.Memory{
		ID: id, Key: r.Strs[colfile.Key], Content: content, Kind: engine.Kind(r.Strs[colfile.Kind]),
		Type: r.Strs[colfile.Type], OrigType: r.Strs[colfile.OrigType], Status: engine.Status(r.Strs[colfile.Status]),
		Tier: engine.Tier(r.Strs[colfile.Tier]), Scope: r.Strs[colfile.Scope], Importance: r.Importance,
		Role: r.Strs[colfile.Role], Session: r.Strs[colfile.Session],
		CreatedAt: r.Times[colfile.CreatedAt], LastAccessedAt: r.Times[colfile.LastAccessedAt],
		AccessCount: int(r.AccessCount), Boost: r.Boost, BoostAt: r.Times[colfile.BoostAt], Hash: r.Hash,
		SupersededBy: r.SupersededBy, ValidTo: r.Times[colfile.ValidTo], SupersededAt: r.Times[colfile.SupersededAt],
		Embedder: r.Strs[colfile.Embedder], Seq: seq,
	}
	if isBlob {
		if m.Embedding, err = decodeEmbedding(blob, true); err != nil {
			return nil, false, fmt.Errorf("memory %d: %w", id, err)
		}
	}
	return m, false, nil
}

// add puts a memory the load read whole into the file being written.
func (cl *columnLoad) add(m *engine.Memory) {
	if cl == nil || cl.w == nil {
		return
	}
	cl.rows++
	r := colfile.Row{
		ID: m.ID, Seq: m.Seq, AccessCount: int64(m.AccessCount), SupersededBy: m.SupersededBy,
		Importance: m.Importance, Boost: m.Boost, Hash: m.Hash,
	}
	r.Times[colfile.CreatedAt], r.Times[colfile.LastAccessedAt], r.Times[colfile.BoostAt] = m.CreatedAt, m.LastAccessedAt, m.BoostAt
	r.Times[colfile.ValidTo], r.Times[colfile.SupersededAt] = m.ValidTo, m.SupersededAt
	r.Strs[colfile.Key], r.Strs[colfile.Kind], r.Strs[colfile.Type] = m.Key, string(m.Kind), m.Type
	r.Strs[colfile.OrigType], r.Strs[colfile.Status], r.Strs[colfile.Tier] = m.OrigType, string(m.Status), string(m.Tier)
	r.Strs[colfile.Scope], r.Strs[colfile.Role], r.Strs[colfile.Session] = m.Scope, m.Role, m.Session
	r.Strs[colfile.Embedder] = m.Embedder
	cl.w.Add(&r, m.Content)
}

// finish ends the load's use of the file: a file read is closed, and
// removed when too many of its rows were not the database's (the next load
// writes it anew); a file written is renamed into place after the open
// returns (Close waits), if the load read every row (ok) and no erasure
// came since it began.
func (cl *columnLoad) finish(ctx context.Context, db *DB, ok bool) {
	if cl == nil {
		return
	}
	if cl.file != nil {
		cl.file.Close()
		if cl.misses > max(256, cl.rows/32) {
			_ = colfile.Remove(cl.path)
		}
		return
	}
	if !ok || cl.w == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	db.vecCommits.Add(1)
	go func() {
		defer db.vecCommits.Done()
		_ = cl.w.Write(cl.path, cl.perm, cl.erasures, func() error {
			var n int64
			if err := db.reader.QueryRowContext(ctx, `SELECT count(*) FROM erasures`).Scan(&n); err != nil {
				return err
			}
			if n != cl.erasures {
				return errors.New("an erasure came after the load began")
			}
			return nil
		})
	}()
}

// removeColumnsFile deletes the column file: after an erase no erased
// memory's key, session or hash may stay in it. The next load writes it
// anew. It reports whether there was one.
func (db *DB) removeColumnsFile() (bool, error) {
	if db.pg || db.path == "" || strings.HasPrefix(db.path, "file:") || strings.Contains(db.path, ":memory:") {
		return false, nil
	}
	path := db.path + colfile.Suffix
	_, err := os.Lstat(path)
	existed := err == nil
	if err := colfile.Remove(path); err != nil {
		return existed, fmt.Errorf("remove the column file %s: %w", path, err)
	}
	return existed, nil
}
