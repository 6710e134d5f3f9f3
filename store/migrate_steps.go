package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"memtrace/engine"
)

// migrationSteps are the Go steps some migrations need besides their SQL,
// by version: each runs in the migration's transaction, after its SQL, on
// SQLite and PostgreSQL alike.
var migrationSteps = map[int]func(context.Context, sqlTx) error{
	17: classifyAuditChanges,
	28: migrateFacts,
	33: migrateSightings,
}

// runMigrationStep runs the Go step of migration m, if it has one.
func runMigrationStep(ctx context.Context, tx *sql.Tx, pg bool, m migration) error {
	step := migrationSteps[m.Version]
	if step == nil {
		return nil
	}
	if err := step(ctx, sqlTx2(tx, pg)); err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	}
	return nil
}

// classifyAuditChanges fills audit.change_kind of the rows written before
// migration 17 with engine.ClassifyChange of their before and after.
func classifyAuditChanges(ctx context.Context, tx sqlTx) error {
	return rewritePages(ctx, tx, "classify audit", `SELECT id, before, after FROM audit WHERE id > ? ORDER BY id LIMIT ?`,
		`UPDATE audit SET change_kind = ? WHERE id = ?`, func(rows *sql.Rows) (int64, []any, error) {
			var (
				id            int64
				before, after sql.NullString
			)
			if err := rows.Scan(&id, &before, &after); err != nil {
				return 0, nil, err
			}
			b, err := auditMemory(before)
			if err != nil {
				return id, nil, fmt.Errorf("before: %w", err)
			}
			a, err := auditMemory(after)
			if err != nil {
				return id, nil, fmt.Errorf("after: %w", err)
			}
			if k := engine.ClassifyChange(b, a); k != "" {
				return id, []any{k, id}, nil
			}
			return id, nil, nil
		})
}

// migrationPage is how many rows a Go step reads before it writes.
const migrationPage = 2000

// rewritePages runs a Go step over a table a page of rows at a time, in
// id order: query selects the rows after an id (its first column), at
// most a page of them; read reads one row and returns its id and the
// arguments of update for it (nil: nothing to change). A page's updates
// run once it is read in full: a PostgreSQL connection runs one statement
// at a time.
func rewritePages(ctx context.Context, tx sqlTx, what, query, update string, read func(*sql.Rows) (int64, []any, error)) error {
	for after := int64(0); ; {
		rows, err := tx.QueryContext(ctx, query, after, migrationPage)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		var updates [][]any
		n := 0
		for rows.Next() {
			id, args, err := read(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("%s %d: %w", what, id, err)
			}
			n, after = n+1, id
			if args != nil {
				updates = append(updates, args)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		for _, args := range updates {
			if _, err := tx.ExecContext(ctx, update, args...); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		if n < migrationPage {
			return nil
		}
	}
}

// auditMemory decodes a before or after column (nil when NULL).
func auditMemory(s sql.NullString) (*engine.Memory, error) {
	if !s.Valid {
		return nil, nil
	}
	var m engine.Memory
	if err := json.Unmarshal([]byte(s.String), &m); err != nil {
		return nil, err
	}
	return &m, nil
}
