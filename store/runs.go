package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"memtrace/engine"
)

// SaveTrace stores a recall trace, sets t.ID (and t.CreatedAt when zero),
// and prunes all but the newest keep traces (keep ≤ 0 keeps every one).
func (tx *Tx) SaveTrace(ctx context.Context, t *engine.StoredTrace, keep int) error {
	if len(t.Trace) == 0 || !json.Valid(t.Trace) {
		return engine.Errorf(engine.EINVALID, "trace is not valid JSON")
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = tx.now().UTC()
	}
	if err := tx.tx.QueryRowContext(ctx, `INSERT INTO traces (query, session, source, at, trace, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, t.Query, t.Session, t.Source, formatTime(t.At), string(t.Trace), formatTime(t.CreatedAt)).Scan(&t.ID); err != nil {
		return fmt.Errorf("save trace: %w", err)
	}
	if keep > 0 {
		if _, err := tx.tx.ExecContext(ctx, `DELETE FROM traces WHERE id <= (SELECT id FROM traces ORDER BY id DESC LIMIT 1 OFFSET ?)`, keep); err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
	}
	return nil
}

const traceColumns = `id, query, session, source, at, trace, created_at`

func scanTrace(s scanner) (*engine.StoredTrace, error) {
	var (
		t           engine.StoredTrace
		at, created string
		trace       string
		err         error
	)
	if err := s.Scan(&t.ID, &t.Query, &t.Session, &t.Source, &at, &trace, &created); err != nil {
		return nil, err
	}
	t.Trace = json.RawMessage(trace)
	if t.At, err = parseTime(at); err != nil {
		return nil, err
	}
	if t.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &t, nil
}

// FindTraces returns stored traces, newest first.
func (tx *Tx) FindTraces(ctx context.Context, limit int) ([]*engine.StoredTrace, error) {
	return queryAll(ctx, tx, "find traces", scanTrace, `SELECT `+traceColumns+` FROM traces ORDER BY id DESC`+limitClause(limit, 0))
}

// GetSetting returns a setting, or "" when it is unset.
func (tx *Tx) GetSetting(ctx context.Context, key string) (string, error) {
	var v string
	err := tx.tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("get setting %q: %w", key, err)
	}
	return v, nil
}

// SetSetting stores a setting.
func (tx *Tx) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return engine.Errorf(engine.EINVALID, "setting has no key")
	}
	if _, err := tx.tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("set setting %q: %w", key, err)
	}
	return nil
}
