package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// The queries of this package are written once, in the SQL both SQLite and
// PostgreSQL speak, with SQLite's ? placeholders. sqlTx runs them on either:
// on PostgreSQL it rewrites each query once (rebind) — $n placeholders and
// the few spellings the two do not share.

// sqlTx is a database/sql transaction that knows its dialect. On
// PostgreSQL a write transaction runs on a connection of its own, with
// the statements whose results nobody waits for queued in pipe for the
// next round trip (pgpipe.go): every query here sends them first.
type sqlTx struct {
	run  sqlRunner // a *sql.Tx, or the *sql.Conn of a PostgreSQL write
	pg   bool
	pipe *pgPipe // PostgreSQL writes only
}

// sqlRunner is what a transaction runs statements on: *sql.Tx or *sql.Conn.
type sqlRunner interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

func sqlTx2(tx *sql.Tx, pg bool) sqlTx { return sqlTx{run: tx, pg: pg} }

// sync sends what the pipe holds before a statement of database/sql.
func (t sqlTx) sync(ctx context.Context) error {
	if t.pipe == nil {
		return nil
	}
	return t.pipe.flush(ctx)
}

func (t sqlTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := t.sync(ctx); err != nil {
		return nil, err
	}
	return t.run.QueryContext(ctx, t.rebind(query), args...)
}

// QueryRowContext cannot return a failure of the queued statements: the
// pipe keeps it, the transaction fails with it (runPGWrite), and the
// query itself fails on the aborted transaction.
func (t sqlTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	_ = t.sync(ctx)
	return t.run.QueryRowContext(ctx, t.rebind(query), args...)
}

func (t sqlTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := t.sync(ctx); err != nil {
		return nil, err
	}
	return t.run.ExecContext(ctx, t.rebind(query), args...)
}

func (t sqlTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if err := t.sync(ctx); err != nil {
		return nil, err
	}
	return t.run.PrepareContext(ctx, t.rebind(query))
}

func (t sqlTx) rebind(query string) string {
	if !t.pg {
		return query
	}
	return pgQuery(query)
}

var pgQueries sync.Map // SQLite spelling → PostgreSQL spelling

// pgSpellings are the SQLite spellings this package uses that PostgreSQL
// spells otherwise. LIKE is ILIKE because SQLite's LIKE ignores case.
var pgSpellings = strings.NewReplacer(
	`SELECT value FROM json_each(?)`, `SELECT value::bigint FROM json_array_elements_text(?::json)`,
	` LIMIT -1 `, ` LIMIT ALL `,
	` LIKE ? ESCAPE`, ` ILIKE ? ESCAPE`,
	`instr(`, `strpos(`,
)

// pgQuery is query in PostgreSQL's spelling, with $1, $2 … for the ?s
// (none of this package's queries has a ? inside a string literal).
func pgQuery(query string) string {
	if q, ok := pgQueries.Load(query); ok {
		return q.(string)
	}
	s := pgSpellings.Replace(query)
	var b strings.Builder
	b.Grow(len(s) + 16)
	n := 0
	for _, r := range s {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	q := b.String()
	pgQueries.Store(query, q)
	return q
}

// PostgreSQL error codes (SQLSTATE) the store tells apart.
const (
	pgUniqueViolation     = "23505"
	pgForeignKeyViolation = "23503"
)

// pgCode is the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}
