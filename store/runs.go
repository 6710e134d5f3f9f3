package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"memtrace/engine"
)

// SaveGoldenRun stores a golden-set run, replacing a run with the same ID.
func (tx *Tx) SaveGoldenRun(ctx context.Context, r *engine.GoldenRun) error {
	if r.ID == "" {
		return engine.Errorf(engine.EINVALID, "golden run has no id")
	}
	for name, v := range map[string]json.RawMessage{"summary": r.Summary, "results": r.Results} {
		if len(v) > 0 && !json.Valid(v) {
			return engine.Errorf(engine.EINVALID, "golden run %s: %s is not valid JSON", r.ID, name)
		}
	}
	if _, err := tx.tx.ExecContext(ctx, `INSERT INTO golden_runs (id, file, config_hash, started_at, summary, results)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET file = excluded.file, config_hash = excluded.config_hash,
			started_at = excluded.started_at, summary = excluded.summary, results = excluded.results`,
		r.ID, r.File, r.ConfigHash, formatTime(r.StartedAt), nullJSON(r.Summary), nullJSON(r.Results)); err != nil {
		return fmt.Errorf("save golden run %s: %w", r.ID, err)
	}
	return nil
}

// FindGoldenRuns returns runs of a probe file ("" for every file), newest
// first.
func (tx *Tx) FindGoldenRuns(ctx context.Context, file string, limit int) ([]*engine.GoldenRun, error) {
	query := `SELECT id, file, config_hash, started_at, summary, results FROM golden_runs`
	var args []any
	if file != "" {
		query, args = query+` WHERE file = ?`, append(args, file)
	}
	rows, err := tx.tx.QueryContext(ctx, query+` ORDER BY started_at DESC, rowid DESC`+limitClause(limit, 0), args...)
	if err != nil {
		return nil, fmt.Errorf("find golden runs: %w", err)
	}
	defer rows.Close()
	var out []*engine.GoldenRun
	for rows.Next() {
		var (
			r                engine.GoldenRun
			started          string
			summary, results sql.NullString
		)
		if err := rows.Scan(&r.ID, &r.File, &r.ConfigHash, &started, &summary, &results); err != nil {
			return nil, fmt.Errorf("find golden runs: %w", err)
		}
		if r.StartedAt, err = parseTime(started); err != nil {
			return nil, fmt.Errorf("find golden runs: %w", err)
		}
		if summary.Valid {
			r.Summary = json.RawMessage(summary.String)
		}
		if results.Valid {
			r.Results = json.RawMessage(results.String)
		}
		out = append(out, &r)
	}
	return out, rows.Err()
}

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

// GetTrace returns a stored trace, or ENOTFOUND.
func (tx *Tx) GetTrace(ctx context.Context, id int64) (*engine.StoredTrace, error) {
	t, err := scanTrace(tx.tx.QueryRowContext(ctx, `SELECT `+traceColumns+` FROM traces WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "trace %d not found (only the newest traces are kept)", id)
	} else if err != nil {
		return nil, fmt.Errorf("get trace %d: %w", id, err)
	}
	return t, nil
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
