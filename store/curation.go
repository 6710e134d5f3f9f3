package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"memtrace/engine"
)

const correctionColumns = `id, lesson_key, context, correction, lesson, scope, count, first_seen, last_seen, status`

func scanCorrection(s scanner) (*engine.Correction, error) {
	var (
		c           engine.Correction
		first, last string
		err         error
	)
	if err := s.Scan(&c.ID, &c.LessonKey, &c.Context, &c.Correction, &c.Lesson, &c.Scope, &c.Count,
		&first, &last, &c.Status); err != nil {
		return nil, err
	}
	if c.FirstSeen, err = parseTime(first); err != nil {
		return nil, err
	}
	if c.LastSeen, err = parseTime(last); err != nil {
		return nil, err
	}
	return &c, nil
}

// GetCorrection returns the lesson with a key and its occurrences, or
// ENOTFOUND.
func (tx *Tx) GetCorrection(ctx context.Context, lessonKey string) (*engine.Correction, error) {
	c, err := tx.GetLesson(ctx, lessonKey)
	if err != nil {
		return nil, err
	}
	if err := tx.sightingsOf(ctx, []*engine.Correction{c}); err != nil {
		return nil, err
	}
	return c, nil
}

// SaveCorrection inserts the lesson or, when its key exists, overwrites its
// head (everything but the occurrences); of c.Occurrences it adds the
// sightings not yet recorded (a sighting is never removed). It sets c.ID.
func (tx *Tx) SaveCorrection(ctx context.Context, c *engine.Correction) error {
	if c.LessonKey == "" {
		return engine.Errorf(engine.EINVALID, "correction has no lesson key")
	}
	err := tx.tx.QueryRowContext(ctx, `INSERT INTO corrections (lesson_key, context, correction, lesson, scope, count,
			first_seen, last_seen, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (lesson_key) DO UPDATE SET context = excluded.context, correction = excluded.correction,
			lesson = excluded.lesson, scope = excluded.scope, count = excluded.count,
			first_seen = excluded.first_seen, last_seen = excluded.last_seen, status = excluded.status
		RETURNING id`,
		c.LessonKey, c.Context, c.Correction, c.Lesson, c.Scope, c.Count,
		formatTime(c.FirstSeen), formatTime(c.LastSeen), c.Status).Scan(&c.ID)
	if err != nil {
		return fmt.Errorf("save correction %q: %w", c.LessonKey, err)
	}
	_, err = tx.addSightings(ctx, c.ID, c.Occurrences)
	return err
}

// FindCorrections returns the lessons with a status ("" for all) in id
// order, with their occurrences.
func (tx *Tx) FindCorrections(ctx context.Context, status string) ([]*engine.Correction, error) {
	query, args := `SELECT `+correctionColumns+` FROM corrections ORDER BY id`, []any(nil)
	if status != "" {
		query, args = `SELECT `+correctionColumns+` FROM corrections WHERE status = ? ORDER BY id`, []any{status}
	}
	cs, err := queryAll(ctx, tx, "find corrections", scanCorrection, query, args...)
	if err != nil {
		return nil, err
	}
	return cs, tx.sightingsOf(ctx, cs)
}

const proposalColumns = `id, kind, memory_id, target_type, proposer, verdict, model, prompt_hash, confidence,
	reason, status, decided_by, decided_at, batch, created_at, prior_status, withdrawn_by, reject_note`

func scanProposal(s scanner) (*engine.Proposal, error) {
	var (
		p                engine.Proposal
		memoryID         sql.NullInt64
		verdict          sql.NullString
		decided, created string
		err              error
	)
	if err := s.Scan(&p.ID, &p.Kind, &memoryID, &p.TargetType, &p.Proposer, &verdict, &p.Model, &p.PromptHash,
		&p.Confidence, &p.Reason, &p.Status, &p.DecidedBy, &decided, &p.Batch, &created, &p.PriorStatus, &p.WithdrawnBy, &p.RejectNote); err != nil {
		return nil, err
	}
	p.MemoryID = memoryID.Int64
	if verdict.Valid {
		p.Verdict = json.RawMessage(verdict.String)
	}
	if p.DecidedAt, err = parseTime(decided); err != nil {
		return nil, err
	}
	if p.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &p, nil
}

func checkVerdict(p *engine.Proposal) error {
	if len(p.Verdict) > 0 && !json.Valid(p.Verdict) {
		return engine.Errorf(engine.EINVALID, "proposal verdict is not valid JSON")
	}
	return nil
}

// InsertProposal stores a new proposal and sets p.ID (and p.CreatedAt when
// it is zero).
func (tx *Tx) InsertProposal(ctx context.Context, p *engine.Proposal) error {
	if err := checkVerdict(p); err != nil {
		return err
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = tx.now().UTC()
	}
	s, err := tx.stmt(ctx, `INSERT INTO proposals (kind, memory_id, target_type, proposer, verdict, model, prompt_hash,
		confidence, reason, status, decided_by, decided_at, batch, created_at, prior_status, withdrawn_by, reject_note)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return fmt.Errorf("insert proposal: %w", err)
	}
	err = s.QueryRowContext(ctx, p.Kind, nullID(p.MemoryID), p.TargetType, p.Proposer, nullJSON(p.Verdict), p.Model,
		p.PromptHash, p.Confidence, p.Reason, p.Status, p.DecidedBy, formatTime(p.DecidedAt), p.Batch, formatTime(p.CreatedAt), p.PriorStatus, p.WithdrawnBy, p.RejectNote).Scan(&p.ID)
	if isForeignKey(err) {
		return engine.Errorf(engine.ENOTFOUND, "proposal refers to memory %d, which does not exist", p.MemoryID)
	} else if err != nil {
		return fmt.Errorf("insert proposal: %w", err)
	}
	return nil
}

// UpdateProposal overwrites every field of the proposal with p.ID.
func (tx *Tx) UpdateProposal(ctx context.Context, p *engine.Proposal) error {
	if err := checkVerdict(p); err != nil {
		return err
	}
	res, err := tx.tx.ExecContext(ctx, `UPDATE proposals SET kind = ?, memory_id = ?, target_type = ?, proposer = ?,
		verdict = ?, model = ?, prompt_hash = ?, confidence = ?, reason = ?, status = ?, decided_by = ?,
		decided_at = ?, batch = ?, created_at = ?, prior_status = ?, withdrawn_by = ?, reject_note = ? WHERE id = ?`,
		p.Kind, nullID(p.MemoryID), p.TargetType, p.Proposer, nullJSON(p.Verdict), p.Model, p.PromptHash,
		p.Confidence, p.Reason, p.Status, p.DecidedBy, formatTime(p.DecidedAt), p.Batch, formatTime(p.CreatedAt), p.PriorStatus, p.WithdrawnBy, p.RejectNote, p.ID)
	if isForeignKey(err) {
		return engine.Errorf(engine.ENOTFOUND, "proposal refers to memory %d, which does not exist", p.MemoryID)
	} else if err != nil {
		return fmt.Errorf("update proposal %d: %w", p.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update proposal %d: %w", p.ID, err)
	} else if n == 0 {
		return engine.Errorf(engine.ENOTFOUND, "proposal %d not found", p.ID)
	}
	return nil
}

// GetProposal returns the proposal with id, or ENOTFOUND.
func (tx *Tx) GetProposal(ctx context.Context, id int64) (*engine.Proposal, error) {
	p, err := scanProposal(tx.tx.QueryRowContext(ctx, `SELECT `+proposalColumns+` FROM proposals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, engine.Errorf(engine.ENOTFOUND, "proposal %d not found", id)
	} else if err != nil {
		return nil, fmt.Errorf("get proposal %d: %w", id, err)
	}
	return p, nil
}

// FindProposals returns the proposals matching f in id order.
func (tx *Tx) FindProposals(ctx context.Context, f engine.ProposalFilter) ([]*engine.Proposal, error) {
	var where []string
	var args []any
	if f.Kind != "" {
		where, args = append(where, `kind = ?`), append(args, f.Kind)
	}
	if f.Status != "" {
		where, args = append(where, `status = ?`), append(args, f.Status)
	}
	if f.Proposer != "" {
		where, args = append(where, `proposer = ?`), append(args, f.Proposer)
	}
	if f.MemoryID != 0 {
		where, args = append(where, `memory_id = ?`), append(args, f.MemoryID)
	}
	if f.Batch != "" {
		where, args = append(where, `batch = ?`), append(args, f.Batch)
	}
	return queryAll(ctx, tx, "find proposals", scanProposal,
		`SELECT `+proposalColumns+` FROM proposals`+whereClause(where)+` ORDER BY id`+limitClause(f.Limit, 0), args...)
}
