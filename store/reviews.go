package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
)

// The review queue (migration 0004): captures the judge held as
// needs_review, and what became of them.

const reviewColumns = `id, message_id, session, role, project, text, at, reason, judge, attempts, status,
	memory_id, decided_by, decided_at, batch, note, created_at, updated_at`

func scanReview(s scanner) (*engine.ReviewItem, error) {
	var (
		r                         engine.ReviewItem
		at, decided, created, upd string
		memoryID                  sql.NullInt64
		err                       error
	)
	if err := s.Scan(&r.ID, &r.MessageID, &r.Session, &r.Role, &r.Project, &r.Text, &at, &r.Reason, &r.Judge,
		&r.Attempts, &r.Status, &memoryID, &r.DecidedBy, &decided, &r.Batch, &r.Note, &created, &upd); err != nil {
		return nil, err
	}
	r.MemoryID = memoryID.Int64
	if r.At, err = parseTime(at); err != nil {
		return nil, err
	}
	if decided != "" {
		if r.DecidedAt, err = parseTime(decided); err != nil {
			return nil, err
		}
	}
	if r.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if r.UpdatedAt, err = parseTime(upd); err != nil {
		return nil, err
	}
	return &r, nil
}

func optionalTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// SaveReview inserts r, or updates the item with the same message id, and
// sets r.ID (and CreatedAt, UpdatedAt).
func (tx *Tx) SaveReview(ctx context.Context, r *engine.ReviewItem) error {
	if r.MessageID == "" {
		return engine.Errorf(engine.EINVALID, "a review item needs the message id")
	}
	if r.Status == "" {
		r.Status = engine.ReviewHeld
	}
	now := tx.now().UTC()
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	r.UpdatedAt = now
	err := tx.tx.QueryRowContext(ctx, `INSERT INTO review_queue (message_id, session, role, project, text, at,
		reason, judge, attempts, status, memory_id, decided_by, decided_at, batch, note, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (message_id) DO UPDATE SET session = excluded.session, role = excluded.role,
			project = excluded.project, text = excluded.text, at = excluded.at, reason = excluded.reason,
			judge = excluded.judge, attempts = excluded.attempts, status = excluded.status,
			memory_id = excluded.memory_id, decided_by = excluded.decided_by, decided_at = excluded.decided_at,
			batch = excluded.batch, note = excluded.note, updated_at = excluded.updated_at
		RETURNING id, created_at`,
		r.MessageID, r.Session, r.Role, r.Project, r.Text, formatTime(r.At), r.Reason, r.Judge, r.Attempts, r.Status,
		nullID(r.MemoryID), r.DecidedBy, optionalTime(r.DecidedAt), r.Batch, r.Note, formatTime(r.CreatedAt), formatTime(now)).
		Scan(&r.ID, new(string))
	if isForeignKey(err) {
		return engine.Errorf(engine.ENOTFOUND, "review item refers to memory %d, which does not exist", r.MemoryID)
	} else if err != nil {
		return fmt.Errorf("save review item %s: %w", r.MessageID, err)
	}
	return nil
}

// FindReviews returns the review items matching f in id order, and the
// total number matching.
func (tx *Tx) FindReviews(ctx context.Context, f engine.ReviewFilter) ([]*engine.ReviewItem, int, error) {
	var where []string
	var args []any
	if f.Status != "" {
		where, args = append(where, `status = ?`), append(args, f.Status)
	}
	if f.Batch != "" {
		where, args = append(where, `batch = ?`), append(args, f.Batch)
	}
	if len(f.IDs) > 0 {
		where, args = append(where, `id IN (SELECT value FROM json_each(?))`), append(args, int64sJSON(f.IDs))
	}
	return findPage(ctx, tx, "review items", "review_queue", reviewColumns, whereClause(where), args, f.Limit, f.Offset, scanReview)
}

// GetReviewByMessage returns the review item of a message, or ENOTFOUND.
func (tx *Tx) GetReviewByMessage(ctx context.Context, messageID string) (*engine.ReviewItem, error) {
	r, err := scanReview(tx.tx.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM review_queue WHERE message_id = ?`, messageID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "message %s is not in the review queue", strings.TrimSpace(messageID))
	} else if err != nil {
		return nil, fmt.Errorf("get review item %s: %w", messageID, err)
	}
	return r, nil
}

// SaveReview inserts or updates a review item.
func (db *DB) SaveReview(ctx context.Context, r *engine.ReviewItem) error {
	return db.write(ctx, func(tx *Tx) error { return tx.SaveReview(ctx, r) })
}

// FindReviews returns review items matching f, and how many match.
func (db *DB) FindReviews(ctx context.Context, f engine.ReviewFilter) ([]*engine.ReviewItem, int, error) {
	var rs []*engine.ReviewItem
	var total int
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		rs, total, err = tx.FindReviews(ctx, f)
		return err
	})
	return rs, total, err
}

// GetReviewByMessage returns the review item of a message, or ENOTFOUND.
func (db *DB) GetReviewByMessage(ctx context.Context, messageID string) (*engine.ReviewItem, error) {
	return readValue(ctx, db, func(tx *Tx) (*engine.ReviewItem, error) { return tx.GetReviewByMessage(ctx, messageID) })
}
