package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/store/vecfile"
)

// The vector file (store/vecfile) beside a SQLite database: the engine's
// open asks for its slab (VectorSlab), and the load that follows takes each
// memory's vector from its slot when the slot is still that row's (same id,
// seq, content hash and embedder, bytes whole) and from SQLite otherwise —
// a row another process wrote since, or one a crash tore, is read from the
// database, never from the file. The load rewrites the file as it streams
// the rows when there is none (or it is not whole, or of another embedder)
// or too many rows changed since it was written.

// vectorFileMin is the number of memories from which a load writes the
// vector file: below it reading the blobs costs less than the file's write.
var vectorFileMin = 4096

// vectorPlan is what VectorSlab leaves for the next load: the mapped file
// (nil: none usable) and the engine's embedder, whose vectors a rewrite keeps.
type vectorPlan struct {
	file     *vecfile.File
	embedder string
	dim      int
}

// VectorFileEnv turns the vector file off when set to "off": every load
// then reads the blobs from SQLite and writes no file (a database on a
// disk where the file cannot be mapped, or a measurement without it). Set
// to "on" a load writes it whatever the number of memories (a check of a
// small database with and without it).
const VectorFileEnv = "MEMTRACE_VECTOR_FILE"

// vectorFilePath is the vector file of db, "" where there is none
// (PostgreSQL, an in-memory or URI database, VectorFileEnv=off).
func (db *DB) vectorFilePath() string {
	if os.Getenv(VectorFileEnv) == "off" || db.pg || db.path == "" || strings.HasPrefix(db.path, "file:") || strings.Contains(db.path, ":memory:") {
		return ""
	}
	return db.path + vecfile.Suffix
}

// VectorSlab maps the vector file for the next ForEachMemory, whose
// memories then carry the vectors of their slots, and returns its slab (nil
// when there is no usable file of embedder's vectors of dim floats). It
// implements engine.VectorSlabs.
//
// The owner is the mapped file: once it is unreachable (the engine that
// adopted the slab is gone) its pages are released (vecfile.File.Release).
func (db *DB) VectorSlab(embedder string, dim int) ([]float32, any) {
	path := db.vectorFilePath()
	if path == "" {
		return nil, nil
	}
	plan := &vectorPlan{embedder: embedder, dim: dim}
	if f, err := vecfile.Open(path); err == nil && f.Dim == dim && f.Embedder == embedder {
		plan.file = f
	}
	db.vecPlan.Store(plan)
	if plan.file == nil {
		return nil, nil
	}
	return plan.file.Slab(), plan.file
}

// vectorLoad is one load's use of the vector file.
type vectorLoad struct {
	file *vecfile.File
	w    *vecfile.Writer
	slot int
	rows int // the rows delivered so far: the next one's place in the engine's slab
	blob *sqlite3.SQLiteStmt
	// erasures is the count of erasures when the load began: a file is
	// kept only if no erasure came after (commitVectors).
	erasures int64
}

// startVectorLoad takes the plan VectorSlab left and decides whether this
// load rewrites the file; nil when the load has nothing to do with it.
func (db *DB) startVectorLoad(ctx context.Context, c *sqlite3.SQLiteConn) *vectorLoad {
	plan := db.vecPlan.Swap(nil)
	if plan == nil {
		return nil
	}
	vl := &vectorLoad{file: plan.file}
	db.vecLoaded.Store(plan.file)
	total, changed, erasures, err := vectorCounts(ctx, c, plan.file)
	vl.erasures = erasures
	if err == nil && (total >= vectorFileMin || os.Getenv(VectorFileEnv) == "on") &&
		(plan.file == nil || total > plan.file.Slots() || changed > max(256, total/32)) {
		if w, err := vecfile.Create(db.vectorFilePath(), plan.embedder, plan.dim, db.FilePerm()); err == nil {
			vl.w = w
		}
	}
	if vl.file == nil && vl.w == nil {
		return nil
	}
	return vl
}

// vectorCounts counts the memories, those written after the file was, and
// the erasures.
func vectorCounts(ctx context.Context, c *sqlite3.SQLiteConn, f *vecfile.File) (total, changed int, erasures int64, err error) {
	var since int64 = -1
	if f != nil {
		since = f.MaxSeq
	}
	return memoryCounts(ctx, c, since)
}

// columns is the load's query: without the vector blobs when the file
// holds them (a row whose slot is stale reads its blob alone).
func (vl *vectorLoad) columns() string {
	if vl == nil || vl.file == nil {
		return loadColumns
	}
	return strings.Replace(loadColumns, "boost, embedding, seq", "boost, NULL, seq", 1)
}

// vector gives m, decoded without its blob, its vector: its slot's when
// that is still the row's, else the row's blob from SQLite. It then adds
// the row to the file being written, if one is.
//
// The slot itself is handed out only when it is the row's place in the
// engine's slab (the n-th row, slot n), where the vector index takes it in
// place; the index writes a place only for its own row, so no vector handed
// out is overwritten. A slot elsewhere (a row between the file's, restored
// under an old id) is copied (CopyVector): the index will write into it
// for another row, and a float16 file's slot would be decoded into a row
// the index already gave another memory.
func (vl *vectorLoad) vector(ctx context.Context, c *sqlite3.SQLiteConn, m *engine.Memory, blobless bool) error {
	defer func() { vl.rows++ }()
	if vl.file != nil && blobless {
		for vl.slot < vl.file.Rows() && vl.file.ID(vl.slot) < m.ID {
			vl.slot++
		}
		var v []float32
		if vl.slot == vl.rows {
			v = vl.file.Vector(vl.slot, m.ID, m.Seq, m.Hash, m.Embedder)
		} else {
			v = vl.file.CopyVector(vl.slot, m.ID, m.Seq, m.Hash, m.Embedder)
		}
		if v != nil {
			m.Embedding = v
		} else {
			v, err := vl.readBlob(ctx, c, m.ID)
			if err != nil {
				return err
			}
			m.Embedding = v
		}
	}
	if vl.w != nil {
		vl.w.Add(m.ID, m.Seq, m.Hash, m.Embedder, m.Embedding)
	}
	return nil
}

// readBlob reads one memory's vector, on the load's connection (its
// statement stays open meanwhile; SQLite allows that).
func (vl *vectorLoad) readBlob(ctx context.Context, c *sqlite3.SQLiteConn, id int64) ([]float32, error) {
	if vl.blob == nil {
		s, err := c.Prepare(`SELECT embedding FROM memories WHERE id = ?`)
		if err != nil {
			return nil, fmt.Errorf("memory %d: read its vector: %w", id, err)
		}
		vl.blob = s.(*sqlite3.SQLiteStmt)
	}
	rows, err := vl.blob.QueryContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: id}})
	if err != nil {
		return nil, fmt.Errorf("memory %d: read its vector: %w", id, err)
	}
	defer rows.Close()
	vals := make([]driver.Value, 1)
	if err := rows.Next(vals); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, fmt.Errorf("memory %d: read its vector: %w", id, err)
	}
	b, ok := vals[0].([]byte)
	if vals[0] != nil && !ok {
		return nil, fmt.Errorf("memory %d: embedding is %T, not a blob", id, vals[0])
	}
	v, err := decodeEmbedding(b, true)
	if err != nil {
		return nil, fmt.Errorf("memory %d: %w", id, err)
	}
	return v, nil
}

// finish commits the file written (only after a whole load: ok, and no
// erasure since it began) and closes the blob statement.
func (vl *vectorLoad) finish(ctx context.Context, db *DB, ok bool) {
	if vl == nil {
		return
	}
	if vl.blob != nil {
		vl.blob.Close()
	}
	if vl.w == nil {
		return
	}
	// A file most of whose rows hold no vector of the engine's embedder
	// (the database's are another's, and the engine embeds in memory)
	// would only send the next loads to SQLite row by row.
	if !ok || vl.w.Vectors() < vl.w.Rows()/2 {
		vl.w.Abort()
		return
	}
	// The rows are written; the sync and the rename, which wait for the
	// disk, go on after the open returns, and Close waits for them. A
	// cache: a file that cannot be written leaves the load as it is.
	ctx = context.WithoutCancel(ctx)
	w, erasures := vl.w, vl.erasures
	db.vecCommits.Add(1)
	go func() {
		defer db.vecCommits.Done()
		_ = w.Commit(vectorSpare(w.Rows()), func() error {
			var n int64
			if err := db.reader.QueryRowContext(ctx, `SELECT count(*) FROM erasures`).Scan(&n); err != nil {
				return err
			}
			if n != erasures {
				return errors.New("an erasure came after the load began")
			}
			return nil
		})
	}()
}

// ReleaseVectorPages pages out the float32 slab of the vector file the last
// load read (vecfile.File.PageOut): call it once the engine's open is over.
// The slab's rows stay where they are, mapped, and a row read later comes
// back from the page cache; at 1M hashed memories a process after its open
// then keeps 1 GB less resident.
func (db *DB) ReleaseVectorPages() {
	if f := db.vecLoaded.Swap(nil); f != nil {
		f.PageOut()
	}
}

// vectorSpare is the number of spare slots a file of rows rows gets: the
// rows a process adds after its open fill them without moving the slab.
func vectorSpare(rows int) int { return max(1024, rows/16) }

// removeVectorFile deletes the vector file: after an erase no erased
// vector's bytes may stay in it. The next load writes it anew.
// It reports whether there was one.
func (db *DB) removeVectorFile() (bool, error) {
	path := db.vectorFilePath()
	if path == "" {
		return false, nil
	}
	_, err := os.Stat(path)
	existed := err == nil
	if err := vecfile.Remove(path); err != nil {
		return existed, fmt.Errorf("remove the vector file %s: %w", path, err)
	}
	return existed, nil
}
