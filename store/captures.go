package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"memtrace/engine"
)

const captureColumns = `id, message_id, session, role, project, text, at, outcome, dropped_by, reason, memory_id, trail, created_at, branch`

func scanCapture(s scanner) (*engine.CaptureRecord, error) {
	var (
		c           engine.CaptureRecord
		at, created string
		memoryID    sql.NullInt64
		trail       string
		err         error
	)
	if err := s.Scan(&c.ID, &c.MessageID, &c.Session, &c.Role, &c.Project, &c.Text, &at, &c.Outcome,
		&c.DroppedBy, &c.Reason, &memoryID, &trail, &created, &c.Branch); err != nil {
		return nil, err
	}
	c.MemoryID = memoryID.Int64
	if err := json.Unmarshal([]byte(trail), &c.Trail); err != nil {
		return nil, fmt.Errorf("capture %d: trail: %w", c.ID, err)
	}
	if c.At, err = parseTime(at); err != nil {
		return nil, err
	}
	if c.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &c, nil
}

// InsertCapture logs one message offered to the capture pipeline and sets
// c.ID (and c.CreatedAt when it is zero).
func (tx *Tx) InsertCapture(ctx context.Context, c *engine.CaptureRecord) error {
	tx.capturesAhead = nil // its answer may not hold any more
	if c.CreatedAt.IsZero() {
		c.CreatedAt = tx.now().UTC()
	}
	trail := c.Trail
	if trail == nil {
		trail = []engine.Decision{}
	}
	tb, err := json.Marshal(trail)
	if err != nil {
		return fmt.Errorf("encode capture trail: %w", err)
	}
	const insert = `INSERT INTO captures (message_id, session, role, project, text, at, outcome,
		dropped_by, reason, memory_id, trail, created_at, branch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	args := []any{c.MessageID, c.Session, c.Role, c.Project, c.Text, formatTime(c.At), c.Outcome,
		c.DroppedBy, c.Reason, nullID(c.MemoryID), string(tb), formatTime(c.CreatedAt), c.Branch}
	if p := tx.tx.pipe; p != nil {
		// Nobody waits for it: it goes with the next statement (at the
		// latest the commit), and c.ID is set then.
		p.queue(insert+` RETURNING id`, args, func(rows pgx.Rows) error {
			if !rows.Next() {
				return errors.New("no id returned")
			}
			return rows.Scan(&c.ID)
		}, func(err error) error { return captureInsertError(c, err) })
		return nil
	}
	if tx.tx.pg {
		s, serr := tx.stmt(ctx, insert+` RETURNING id`)
		if serr != nil {
			return fmt.Errorf("insert capture: %w", serr)
		}
		err = s.QueryRowContext(ctx, args...).Scan(&c.ID)
	} else {
		c.ID, err = tx.insertID(ctx, insert, args...)
	}
	return captureInsertError(c, err)
}

// captureInsertError is the error of InsertCapture's insert.
func captureInsertError(c *engine.CaptureRecord, err error) error {
	if isForeignKey(err) {
		return engine.Errorf(engine.ENOTFOUND, "capture refers to memory %d, which does not exist", c.MemoryID)
	} else if err != nil {
		return fmt.Errorf("insert capture: %w", err)
	}
	return nil
}

// FindCaptures returns the captures matching f in id order, and the total
// number matching.
func (tx *Tx) FindCaptures(ctx context.Context, f engine.CaptureFilter) ([]*engine.CaptureRecord, int, error) {
	var where []string
	var args []any
	if f.Outcome != "" {
		where, args = append(where, `outcome = ?`), append(args, f.Outcome)
	}
	if f.DroppedBy != "" {
		where, args = append(where, `dropped_by = ?`), append(args, f.DroppedBy)
	}
	if f.Reason != "" {
		where, args = append(where, `reason = ?`), append(args, f.Reason)
	}
	if f.Text != "" {
		where, args = append(where, `text LIKE ? ESCAPE '\'`), append(args, likePattern(f.Text))
	}
	return findPage(ctx, tx, "captures", "captures", captureColumns, whereClause(where), args, f.Limit, f.Offset, scanCapture)
}

// CaptureReasonCounts counts dropped captures by the layer that dropped them
// and the reason, most frequent first.
func (tx *Tx) CaptureReasonCounts(ctx context.Context) ([]engine.ReasonCount, error) {
	rows, err := tx.tx.QueryContext(ctx, `SELECT dropped_by, reason, COUNT(*) FROM captures
		WHERE dropped_by <> '' GROUP BY dropped_by, reason ORDER BY COUNT(*) DESC, dropped_by, reason`)
	if err != nil {
		return nil, fmt.Errorf("count capture reasons: %w", err)
	}
	defer rows.Close()
	var out []engine.ReasonCount
	for rows.Next() {
		var rc engine.ReasonCount
		if err := rows.Scan(&rc.Layer, &rc.Reason, &rc.Count); err != nil {
			return nil, fmt.Errorf("count capture reasons: %w", err)
		}
		out = append(out, rc)
	}
	return out, rows.Err()
}

const captureExistsSQL = `SELECT EXISTS (SELECT 1 FROM captures WHERE message_id = ?)`

// CaptureExists reports whether a message id was already offered.
func (tx *Tx) CaptureExists(ctx context.Context, messageID string) (bool, error) {
	if messageID == "" {
		return false, nil
	}
	const query = captureExistsSQL
	if p := tx.tx.pipe; p != nil {
		var ok bool
		err := p.query(ctx, query, []any{messageID}, func(rows pgx.Rows) error {
			if !rows.Next() {
				return errors.New("no row")
			}
			return rows.Scan(&ok)
		}, func(err error) error { return fmt.Errorf("capture exists: %w", err) })
		return ok, err
	}
	s, err := tx.stmt(ctx, query)
	if err != nil {
		return false, fmt.Errorf("capture exists: %w", err)
	}
	var ok bool
	if err := s.QueryRowContext(ctx, messageID).Scan(&ok); err != nil {
		return false, fmt.Errorf("capture exists: %w", err)
	}
	return ok, nil
}

// CapturesExistAhead queues, in a PostgreSQL write, the CapturesExist
// query of messageIDs to go to the server with the next statement; the
// CapturesExist call with the same ids that follows answers from it,
// unless a capture was inserted in between. Elsewhere it does nothing.
func (tx *Tx) CapturesExistAhead(messageIDs []string) {
	p := tx.tx.pipe
	if p == nil || p.err != nil {
		return
	}
	ahead := &capturesAhead{ids: slices.Clone(messageIDs), out: map[string]bool{}, trip: p.sent + 1}
	for _, chunk := range captureChunks(messageIDs) {
		p.queue(capturesExistQuery(len(chunk)), chunk, func(rows pgx.Rows) error { return scanCaptureIDs(rows, ahead.out) },
			func(err error) error { return fmt.Errorf("captures exist: %w", err) })
	}
	tx.capturesAhead = ahead
}

// capturesAhead is a CapturesExist sent ahead: its ids and its answer
// (filled when the pipe is flushed).
type capturesAhead struct {
	ids  []string
	out  map[string]bool
	trip int // the round trip that answers it (pgPipe.sent)
}

// capturesExistChunk bounds the ids of one CapturesExist query, well under
// SQLite's and PostgreSQL's limits on bound parameters.
const capturesExistChunk = 500

// CapturesExist returns which of the message ids were already offered, in
// one query per capturesExistChunk ids.
func (tx *Tx) CapturesExist(ctx context.Context, messageIDs []string) (map[string]bool, error) {
	if ahead := tx.capturesAhead; ahead != nil && slices.Equal(ahead.ids, messageIDs) {
		tx.capturesAhead = nil
		if p := tx.tx.pipe; p.sent < ahead.trip || p.err != nil {
			if err := p.flush(ctx); err != nil {
				return nil, err
			}
		}
		return ahead.out, nil
	}
	out := map[string]bool{}
	for _, chunk := range captureChunks(messageIDs) {
		if err := tx.capturesExist(ctx, capturesExistQuery(len(chunk)), chunk, out); err != nil {
			return nil, fmt.Errorf("captures exist: %w", err)
		}
	}
	return out, nil
}

// captureChunks are the non-empty ids of messageIDs as query arguments,
// capturesExistChunk at most in each.
func captureChunks(messageIDs []string) [][]any {
	var out [][]any
	ids := make([]any, 0, min(len(messageIDs), capturesExistChunk))
	for _, id := range messageIDs {
		if id != "" {
			ids = append(ids, id)
		}
	}
	for len(ids) > 0 {
		n := min(len(ids), capturesExistChunk)
		out, ids = append(out, ids[:n]), ids[n:]
	}
	return out
}

func capturesExistQuery(n int) string {
	return `SELECT DISTINCT message_id FROM captures WHERE message_id IN (?` + strings.Repeat(`, ?`, n-1) + `)`
}

// scanCaptureIDs marks each message id of rows in out.
func scanCaptureIDs(rows interface {
	Next() bool
	Scan(dest ...any) error
}, out map[string]bool) error {
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		out[id] = true
	}
	return nil
}

func (tx *Tx) capturesExist(ctx context.Context, q string, args []any, out map[string]bool) error {
	if p := tx.tx.pipe; p != nil {
		return p.query(ctx, q, args, func(rows pgx.Rows) error { return scanCaptureIDs(rows, out) }, nil)
	}
	rows, err := tx.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := scanCaptureIDs(rows, out); err != nil {
		return err
	}
	return rows.Err()
}
