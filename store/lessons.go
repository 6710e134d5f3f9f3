package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"memtrace/engine"
)

// Lessons as rows (migration 33): a lesson's sightings are rows of
// lesson_sightings, unique by (lesson, sighting key), so counting one more
// sighting reads the lesson's head row and the sightings of one message or
// session, and writes one row — whatever the number of earlier sightings.
// GetCorrection and FindCorrections still return every occurrence, built
// from the rows in the order they were added.

// sightingKey is what makes a sighting unique within its lesson: the
// message id, or for a sighting without one its time, session and text.
func sightingKey(o engine.Occurrence) string {
	if o.MessageID != "" {
		return "m:" + o.MessageID
	}
	h := sha256.Sum256([]byte(o.Session + "\x00" + o.Text))
	return "t:" + formatTime(o.At) + ":" + hex.EncodeToString(h[:8])
}

const sightingColumns = `correction_id, message_id, session, text, at`

func scanSighting(s scanner) (int64, engine.Occurrence, error) {
	var (
		id int64
		o  engine.Occurrence
		at string
	)
	if err := s.Scan(&id, &o.MessageID, &o.Session, &o.Text, &at); err != nil {
		return 0, o, err
	}
	var err error
	o.At, err = parseTime(at)
	return id, o, err
}

// addSightings inserts the occurrences of lesson id not yet recorded and
// returns how many it inserted.
func (tx *Tx) addSightings(ctx context.Context, id int64, occs []engine.Occurrence) (int, error) {
	n := 0
	for _, o := range occs {
		res, err := tx.tx.ExecContext(ctx, `INSERT INTO lesson_sightings (correction_id, sighting_key, `+
			`message_id, session, text, at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			id, sightingKey(o), o.MessageID, o.Session, o.Text, formatTime(o.At))
		if err != nil {
			return n, fmt.Errorf("add sighting of lesson %d: %w", id, err)
		}
		if k, err := res.RowsAffected(); err == nil {
			n += int(k)
		}
	}
	return n, nil
}

// AddSighting records one sighting of the lesson with id; false when the
// lesson already holds a sighting with its key (the same message).
func (tx *Tx) AddSighting(ctx context.Context, correctionID int64, o engine.Occurrence) (bool, error) {
	n, err := tx.addSightings(ctx, correctionID, []engine.Occurrence{o})
	return n == 1, err
}

// FindSightings returns the sightings of lesson correctionID from message
// messageID or in session (either may be ""), in the order they were
// added.
func (tx *Tx) FindSightings(ctx context.Context, correctionID int64, messageID, session string) ([]engine.Occurrence, error) {
	rows, err := queryAll(ctx, tx, "find sightings", func(s scanner) (engine.Occurrence, error) {
		_, o, err := scanSighting(s)
		return o, err
	}, `SELECT `+sightingColumns+` FROM lesson_sightings
		WHERE correction_id = ? AND (message_id = ? AND message_id <> '' OR session = ? AND session <> '') ORDER BY id`,
		correctionID, messageID, session)
	return rows, err
}

// sightingsOf fills the occurrences of cs from their rows.
func (tx *Tx) sightingsOf(ctx context.Context, cs []*engine.Correction) error {
	if len(cs) == 0 {
		return nil
	}
	byID := make(map[int64]*engine.Correction, len(cs))
	for _, c := range cs {
		byID[c.ID] = c
		c.Occurrences = []engine.Occurrence{}
	}
	query, args := `SELECT `+sightingColumns+` FROM lesson_sightings ORDER BY id`, []any(nil)
	if len(cs) == 1 {
		query, args = `SELECT `+sightingColumns+` FROM lesson_sightings WHERE correction_id = ? ORDER BY id`, []any{cs[0].ID}
	}
	rows, err := tx.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("read sightings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		id, o, err := scanSighting(rows)
		if err != nil {
			return fmt.Errorf("read sightings: %w", err)
		}
		if c := byID[id]; c != nil {
			c.Occurrences = append(c.Occurrences, o)
		}
	}
	return rows.Err()
}

// GetLesson returns a lesson's head — everything but its occurrences — by
// key, or ENOTFOUND.
func (tx *Tx) GetLesson(ctx context.Context, lessonKey string) (*engine.Correction, error) {
	c, err := scanCorrection(tx.tx.QueryRowContext(ctx, `SELECT `+correctionColumns+` FROM corrections WHERE lesson_key = ?`, lessonKey))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "correction %q not found", lessonKey)
	} else if err != nil {
		return nil, fmt.Errorf("get correction %q: %w", lessonKey, err)
	}
	return c, nil
}

// LessonHeads returns every lesson's head (no occurrences) in id order.
func (tx *Tx) LessonHeads(ctx context.Context) ([]*engine.Correction, error) {
	return queryAll(ctx, tx, "lesson heads", scanCorrection, `SELECT `+correctionColumns+` FROM corrections ORDER BY id`)
}

// migrateSightings is migration 33's Go step: every lesson's occurrences
// array becomes rows, and the array is emptied.
func migrateSightings(ctx context.Context, tx sqlTx) error {
	type lesson struct {
		id   int64
		occs []engine.Occurrence
	}
	var ls []lesson
	rows, err := tx.QueryContext(ctx, `SELECT id, occurrences FROM corrections ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read occurrences: %w", err)
	}
	for rows.Next() {
		var (
			l   lesson
			raw string
		)
		if err := rows.Scan(&l.id, &raw); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal([]byte(raw), &l.occs); err != nil {
			rows.Close()
			return fmt.Errorf("lesson %d: occurrences: %w", l.id, err)
		}
		ls = append(ls, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	t := &Tx{tx: tx}
	for _, l := range ls {
		if _, err := t.addSightings(ctx, l.id, l.occs); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE corrections SET occurrences = '[]'`)
	return err
}
