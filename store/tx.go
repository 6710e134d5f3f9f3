package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/internal/half"
)

// Tx is one transaction. It implements engine.Queries; Store.Update hands it
// to the caller, and every DB method runs one of its methods in a
// transaction of its own.
type Tx struct {
	tx  sqlTx
	now func() time.Time

	// The seq counter is read once per transaction and written back at
	// commit. Write transactions hold the write lock from BEGIN IMMEDIATE, so
	// nobody else can move it meanwhile and values are handed out in commit
	// order.
	seq       int64
	seqLoaded bool
	seqDirty  bool
	wroteSeq  bool // some write took a seq (seqDirty is cleared by flushSeq)

	// The batch counter as the opening of a PostgreSQL write read it,
	// counted up by NextBatchID (pgpipe.go).
	batchCount  int64
	batchLoaded bool
	batchRow    bool // the counter's row exists: NextBatchID updates it
	// capturesAhead is a CapturesExist sent ahead (CapturesExistAhead).
	capturesAhead *capturesAhead
	// nextID is the id the memories table gives next, as the opening of a
	// PostgreSQL write read it and InsertMemoryAhead counts it up; valid
	// while idLoaded (pgpipe.go).
	nextID   int64
	idLoaded bool

	stmts map[string]*sql.Stmt

	// What the transaction changed, for the PostgreSQL notification sent
	// at commit (notify.go): audited memory ids and batch ids.
	memIDs  []int64
	batches []string
}

var _ engine.Queries = (*Tx)(nil)

// stmt returns a statement prepared once per transaction, for the statements
// a bulk import runs thousands of times. On PostgreSQL it is the query
// itself: pgx prepares each query once per connection and keeps it, while an
// explicit Prepare would cost two more round trips (prepare, deallocate) per
// transaction, under the space's write lock.
func (tx *Tx) stmt(ctx context.Context, query string) (stmt, error) {
	if tx.tx.pg {
		return pgStmt{tx: tx.tx, query: query}, nil
	}
	if s, ok := tx.stmts[query]; ok {
		return s, nil
	}
	s, err := tx.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if tx.stmts == nil {
		tx.stmts = map[string]*sql.Stmt{}
	}
	tx.stmts[query] = s
	return s, nil
}

// insertID runs an INSERT through its prepared statement and returns the
// new row's id (SQLite's rowid, the INTEGER PRIMARY KEY): an Exec, without
// the result-set round of RETURNING, which cost as much as the insert.
func (tx *Tx) insertID(ctx context.Context, query string, args ...any) (int64, error) {
	s, err := tx.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := s.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// stmt is a *sql.Stmt, or a PostgreSQL query run as one (pgStmt).
type stmt interface {
	ExecContext(ctx context.Context, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, args ...any) *sql.Row
}

type pgStmt struct {
	tx    sqlTx
	query string
}

func (s pgStmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	return s.tx.ExecContext(ctx, s.query, args...)
}

func (s pgStmt) QueryRowContext(ctx context.Context, args ...any) *sql.Row {
	return s.tx.QueryRowContext(ctx, s.query, args...)
}

func (tx *Tx) close() {
	for _, s := range tx.stmts {
		s.Close()
	}
	tx.stmts = nil
}

// nextSeq returns the next value of the global write counter.
func (tx *Tx) nextSeq(ctx context.Context) (int64, error) {
	if !tx.seqLoaded && tx.tx.pipe != nil {
		if err := tx.tx.pipe.flush(ctx); err != nil { // the lock's read of seq
			return 0, err
		}
	}
	if !tx.seqLoaded {
		if err := tx.tx.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = 'seq'`).Scan(&tx.seq); err != nil {
			return 0, fmt.Errorf("read seq: %w", err)
		}
		tx.seqLoaded = true
	}
	tx.seq++
	tx.seqDirty, tx.wroteSeq = true, true
	return tx.seq, nil
}

func (tx *Tx) flushSeq(ctx context.Context) error {
	if !tx.seqDirty {
		return nil
	}
	if p := tx.tx.pipe; p != nil {
		p.exec(`UPDATE counters SET value = ? WHERE name = 'seq'`, []any{tx.seq}, func(err error) error { return fmt.Errorf("write seq: %w", err) }, nil)
		tx.seqDirty = false
		return nil
	}
	if _, err := tx.tx.ExecContext(ctx, `UPDATE counters SET value = ? WHERE name = 'seq'`, tx.seq); err != nil {
		return fmt.Errorf("write seq: %w", err)
	}
	tx.seqDirty = false
	return nil
}

// timeLayout is fixed-width so that stored times sort as text; UTC with
// nanoseconds so that they round-trip exactly.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// encodeEmbedding stores a vector as little-endian float32; nil stays NULL.
// A dense vector whose values are all float16 exactly (a dense embedder's:
// the engine keeps them at that precision, internal/half/embedder.go) is stored
// as halfTag and its halves instead, half the bytes (1,537 against 3,072 a
// 768-d vector) and nothing lost: its odd length tells it from float32.
func encodeEmbedding(v []float32) []byte {
	if v == nil {
		return nil
	}
	if half.Keeps(v) {
		return half.Encode(append(make([]byte, 0, 1+2*len(v)), halfTag), v)
	}
	b := make([]byte, 4*len(v))
	if len(v) > 0 && nativeLittleEndian() {
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(b)))
		return b
	}
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullID stores 0 as NULL (for optional references to memories).
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// nullJSON stores an empty raw JSON value as NULL.
func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// isUnique reports whether err is a UNIQUE constraint violation.
func isUnique(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique || pgCode(err) == pgUniqueViolation
}

// isForeignKey reports whether err is a FOREIGN KEY constraint violation.
func isForeignKey(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintForeignKey || pgCode(err) == pgForeignKeyViolation
}

// scanner is *sql.Row or *sql.Rows.
type scanner interface {
	Scan(dest ...any) error
}

// queryAll runs query and maps every row with scan; what names the
// operation in a query or scan failure. An error met while iterating the
// rows is returned as it is.
func queryAll[T any](ctx context.Context, tx *Tx, what string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// findPage is a Find… query of table: the rows matching cond (a WHERE
// clause with its args) in id order, one page of them (limit, offset), and
// how many match in all, for paging; what names the rows in errors.
func findPage[T any](ctx context.Context, tx *Tx, what, table, columns, cond string, args []any, limit, offset int, scan func(scanner) (T, error)) ([]T, int, error) {
	var total int
	if err := tx.tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", what, err)
	}
	out, err := queryAll(ctx, tx, "find "+what, scan, `SELECT `+columns+` FROM `+table+cond+` ORDER BY id`+limitClause(limit, offset), args...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}
