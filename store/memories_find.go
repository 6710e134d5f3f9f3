package store

// Reading memories: one by id or key, and FindMemories' filtered pages
// (its WHERE, LIKE and LIMIT clauses). Writing them is memories.go.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"memtrace/engine"
)

// scanMemory reads one row selected with memoryColumns.
func scanMemory(s scanner) (*engine.Memory, error) {
	var v [memoryColumnCount]any
	var ptrs [memoryColumnCount]any
	for i := range v {
		ptrs[i] = &v[i]
	}
	if err := s.Scan(ptrs[:]...); err != nil {
		return nil, err
	}
	var dv [memoryColumnCount]driver.Value
	for i := range v {
		dv[i] = v[i]
	}
	return memoryFromValues(dv[:])
}

// GetMemory returns the memory with id, or ENOTFOUND.
func (tx *Tx) GetMemory(ctx context.Context, id int64) (*engine.Memory, error) {
	const query = `SELECT ` + memoryColumns + ` FROM memories WHERE id = ?`
	if p := tx.tx.pipe; p != nil {
		var m *engine.Memory
		err := p.query(ctx, query, []any{id}, func(rows pgx.Rows) error {
			if !rows.Next() {
				return nil
			}
			var err error
			m, err = scanMemory(rows)
			return err
		}, func(err error) error { return fmt.Errorf("get memory %d: %w", id, err) })
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, engine.Errorf(engine.ENOTFOUND, "memory %d not found", id)
		}
		return m, nil
	}
	m, err := scanMemory(tx.tx.QueryRowContext(ctx, query, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "memory %d not found", id)
	} else if err != nil {
		return nil, fmt.Errorf("get memory %d: %w", id, err)
	}
	return m, nil
}

// GetMemoryByKey returns the memory with an external key, or ENOTFOUND.
func (tx *Tx) GetMemoryByKey(ctx context.Context, key string) (*engine.Memory, error) {
	if key == "" {
		return nil, engine.Errorf(engine.EINVALID, "memory key is empty")
	}
	m, err := scanMemory(tx.tx.QueryRowContext(ctx, `SELECT `+memoryColumns+` FROM memories WHERE key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "memory with key %q not found", key)
	} else if err != nil {
		return nil, fmt.Errorf("get memory by key %q: %w", key, err)
	}
	return m, nil
}

// FindMemories returns the memories matching f in id order, and how many
// match in all (ignoring Limit and Offset) for paging.
func (tx *Tx) FindMemories(ctx context.Context, f engine.MemoryFilter) ([]*engine.Memory, int, error) {
	cond, args := memoryWhere(f)
	return findPage(ctx, tx, "memories", "memories", memoryColumns, cond, args, f.Limit, f.Offset, scanMemory)
}

// findMemoriesPG is FindMemories on PostgreSQL in one statement outside a
// transaction (a statement reads one snapshot): each row carries the
// total, so a page costs one round trip instead of four (BEGIN, COUNT,
// SELECT, COMMIT). A TUI tab reloads a page on every change notification.
// A page with no row asks for the total on its own.
func (db *DB) findMemoriesPG(ctx context.Context, f engine.MemoryFilter) ([]*engine.Memory, int, error) {
	cond, args := memoryWhere(f)
	query := pgQuery(`SELECT ` + memoryColumns + `, (SELECT COUNT(*) FROM memories` + cond + `) FROM memories` + cond +
		` ORDER BY id` + limitClause(f.Limit, f.Offset))
	rows, err := db.reader.QueryContext(ctx, query, append(slices.Clone(args), args...)...)
	if err != nil {
		return nil, 0, fmt.Errorf("find memories: %w", err)
	}
	defer rows.Close()
	var ms []*engine.Memory
	var total int
	for rows.Next() {
		m, err := scanMemory(withTotal{rows, &total})
		if err != nil {
			return nil, 0, fmt.Errorf("find memories: %w", err)
		}
		ms = append(ms, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("find memories: %w", err)
	}
	if len(ms) == 0 {
		if err := db.reader.QueryRowContext(ctx, pgQuery(`SELECT COUNT(*) FROM memories`+cond), args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count memories: %w", err)
		}
	}
	return ms, total, nil
}

// withTotal scans a memory row followed by one more column, the total.
type withTotal struct {
	rows  *sql.Rows
	total *int
}

func (w withTotal) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.total)...) }

// memoryWhere is the WHERE clause of FindMemories (with SQLite's ?
// placeholders) and its arguments.
func memoryWhere(f engine.MemoryFilter) (string, []any) {
	var where []string
	var args []any
	if len(f.IDs) > 0 {
		where = append(where, `id IN (SELECT value FROM json_each(?))`)
		args = append(args, int64sJSON(f.IDs))
	}
	if f.Status != nil {
		where, args = append(where, `status = ?`), append(args, string(*f.Status))
	}
	if f.Type != nil {
		where, args = append(where, `type = ?`), append(args, *f.Type)
	}
	if f.Kind != nil {
		where, args = append(where, `kind = ?`), append(args, string(*f.Kind))
	}
	if f.Tier != nil {
		where, args = append(where, `tier = ?`), append(args, string(*f.Tier))
	}
	if f.Scope != nil {
		where, args = append(where, `scope = ?`), append(args, *f.Scope)
	}
	if f.Text != "" {
		where, args = append(where, `content LIKE ? ESCAPE '\'`), append(args, likePattern(f.Text))
	}
	if f.Key != "" {
		where, args = append(where, `key = ?`), append(args, f.Key)
	}
	if f.Session != "" {
		where, args = append(where, `session = ?`), append(args, f.Session)
	}
	if f.Superseded {
		// Through the partial index: a bare "superseded_by IS NOT NULL"
		// with ORDER BY id scans the table.
		where = append(where, `id IN (SELECT id FROM memories WHERE superseded_by IS NOT NULL)`)
	}
	if len(f.SupersededBy) > 0 {
		where = append(where, `superseded_by IN (SELECT value FROM json_each(?))`)
		args = append(args, int64sJSON(f.SupersededBy))
	}
	return whereClause(where), args
}

// likePattern makes a LIKE pattern matching s as a literal substring.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

func whereClause(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

func limitClause(limit, offset int) string {
	if limit <= 0 && offset <= 0 {
		return ""
	}
	if limit <= 0 {
		limit = -1
	}
	return fmt.Sprintf(" LIMIT %d OFFSET %d", limit, max(offset, 0))
}
