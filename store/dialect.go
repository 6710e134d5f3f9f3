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

// sqlTx is a database/sql transaction that knows its dialect.
type sqlTx struct {
	*sql.Tx
	pg bool
}

func sqlTx2(tx *sql.Tx, pg bool) sqlTx { return sqlTx{Tx: tx, pg: pg} }

func (t sqlTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.rebind(query), args...)
}

func (t sqlTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.rebind(query), args...)
}

func (t sqlTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.rebind(query), args...)
}

func (t sqlTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.Tx.PrepareContext(ctx, t.rebind(query))
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
