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
// migration 17 with engine.ClassifyChange of their before and after, a
// page of rows at a time (a PostgreSQL connection runs one statement at a
// time, so the page is read in full before its updates).
func classifyAuditChanges(ctx context.Context, tx sqlTx) error {
	const page = 2000
	type change struct {
		id   int64
		kind string
	}
	for after := int64(0); ; {
		rows, err := tx.QueryContext(ctx, `SELECT id, before, after FROM audit WHERE id > ? ORDER BY id LIMIT ?`, after, page)
		if err != nil {
			return fmt.Errorf("classify audit: %w", err)
		}
		var changes []change
		n := 0
		for rows.Next() {
			var (
				id             int64
				before, afterJ sql.NullString
			)
			if err := rows.Scan(&id, &before, &afterJ); err != nil {
				rows.Close()
				return fmt.Errorf("classify audit: %w", err)
			}
			n, after = n+1, id
			b, err := auditMemory(before)
			if err != nil {
				rows.Close()
				return fmt.Errorf("classify audit %d: before: %w", id, err)
			}
			a, err := auditMemory(afterJ)
			if err != nil {
				rows.Close()
				return fmt.Errorf("classify audit %d: after: %w", id, err)
			}
			if k := engine.ClassifyChange(b, a); k != "" {
				changes = append(changes, change{id, k})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("classify audit: %w", err)
		}
		for _, c := range changes {
			if _, err := tx.ExecContext(ctx, `UPDATE audit SET change_kind = ? WHERE id = ?`, c.kind, c.id); err != nil {
				return fmt.Errorf("classify audit %d: %w", c.id, err)
			}
		}
		if n < page {
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
