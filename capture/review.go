package capture

import (
	"context"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/engine/filter"
)

// Reoffer offers held review items to the capturer's judge again, through
// the whole pipeline (L1, L2, the judge, the gates, dedupe), in one
// transaction. Each offer is logged in captures like any other; an item
// the judge decides leaves the queue as stored, reinforced or dropped, one
// it holds again stays held with the new reason. A judge that fails keeps
// the item held: the rules never decide in its place here.
// It returns the batch id the offers were written under.
func (c *Capturer) Reoffer(ctx context.Context, items []*engine.ReviewItem) (string, []*engine.CaptureResult, error) {
	if len(items) == 0 {
		return "", nil, nil
	}
	ps := make([]*pending, len(items))
	for i, it := range items {
		if !it.Open() {
			return "", nil, engine.Errorf(engine.ECONFLICT, "review item %d is %s already; only held, skipped or dropped items can be offered again", it.ID, it.Status)
		}
		m := it.Message()
		m.At = m.At.UTC()
		ps[i] = &pending{msg: m, review: it, res: &engine.CaptureResult{MessageID: m.ID, Key: m.ID, Trail: []engine.Decision{{
			Layer: engine.LayerReview, Verdict: "reoffer",
			Reason: fmt.Sprintf("review item %d offered again to %s (%s %d time(s): %s)", it.ID, c.decider, it.Status, it.Attempts, it.Reason),
		}}}}
	}
	batch, err := reviewBatch(ctx, c.e, engine.BatchReviewRetry)
	if err != nil {
		return "", nil, err
	}
	rs, err := c.run(ctx, ps, make([]bool, len(ps)), batch)
	return batch, rs, err
}

// queue writes the review item of a held message, or the decision of a
// re-offered one.
func (w *batchWriter) queue(ctx context.Context, p *pending) error {
	r, m, it := p.res, p.msg, p.review
	if it == nil {
		if p.held == nil {
			return nil
		}
		old, err := w.q.GetReviewByMessage(ctx, m.ID)
		switch {
		case err == nil:
			it = old
		case engine.ErrorCode(err) == engine.ENOTFOUND:
			it = &engine.ReviewItem{}
		default:
			return err
		}
	}
	it.MessageID, it.Session, it.Role, it.Project, it.Text, it.At = m.ID, m.Session, m.Role, m.Project, m.Text, m.At
	if p.raw != "" && p.held != nil {
		it.Text = p.raw // held for the curator to see (HoldSecrets)
	}
	if p.held != nil {
		it.Status, it.Reason, it.Judge = engine.ReviewHeld, p.held.Reason, p.held.Judge
		it.Attempts++
		it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = 0, "", time.Time{}, "", ""
	} else {
		switch r.Outcome {
		case engine.OutcomeStored:
			it.Status = engine.ReviewStored
		case engine.OutcomeReinforced:
			it.Status = engine.ReviewReinforced
		default:
			it.Status = engine.ReviewDropped
		}
		it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch = r.MemoryID, r.Decider, w.c.e.Now(), w.actor.Batch
		switch {
		case r.DroppedBy != "":
			it.Note = r.DroppedBy + ": " + r.Reason
		case r.Outcome == engine.OutcomeStored:
			it.Note = fmt.Sprintf("stored by %s: %s %s", r.Decider, r.Kind, r.Type)
		case r.Outcome == engine.OutcomeReinforced:
			it.Note = fmt.Sprintf("%s found it duplicates memory %d", r.Decider, r.MemoryID)
		default:
			it.Note = r.Reason
		}
	}
	if err := w.q.SaveReview(ctx, it); err != nil {
		return fmt.Errorf("review queue %s: %w", m.ID, err)
	}
	return nil
}

// ReviewChoice is what a curator decides for held items stored by hand.
type ReviewChoice struct {
	Kind       engine.Kind // "": fact
	Type       string      // "": note
	Importance float64     // 0: the type's default
	Curator    string      // "": curator
}

// ReviewDecision is the result of storing or skipping review items by hand.
type ReviewDecision struct {
	Batch string               `json:"batch"`
	Items []*engine.ReviewItem `json:"items"`
}

// openReviews reads the review items ids name, all of which must exist
// and be open.
func openReviews(ctx context.Context, q engine.Queries, ids []int64) ([]*engine.ReviewItem, error) {
	if len(ids) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "name the review items (`memtrace review list` shows their ids)")
	}
	items, _, err := q.FindReviews(ctx, engine.ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	byID := map[int64]*engine.ReviewItem{}
	for _, it := range items {
		byID[it.ID] = it
	}
	out := make([]*engine.ReviewItem, 0, len(ids))
	for _, id := range ids {
		it, ok := byID[id]
		switch {
		case !ok:
			return nil, engine.Errorf(engine.ENOTFOUND, "review item %d does not exist; `memtrace review list --status all` shows them", id)
		case !it.Open():
			return nil, engine.Errorf(engine.ECONFLICT, "review item %d is %s already (memory %d); nothing was changed", id, it.Status, it.MemoryID)
		}
		out = append(out, it)
	}
	return out, nil
}

// StoreReviews makes held items memories by a curator's hand — no judge,
// no gates, like `memtrace add`, with the message's id as the key — in one
// transaction audited under a new batch ("review-store-…"), which `rollback`
// undoes. Each store is logged in captures.
func StoreReviews(ctx context.Context, e *engine.Engine, ids []int64, ch ReviewChoice) (*ReviewDecision, error) {
	if ch.Curator == "" {
		ch.Curator = engine.ProposerCurator
	}
	if ch.Kind == "" {
		ch.Kind = engine.KindFact
	}
	if ch.Kind != engine.KindFact && ch.Kind != engine.KindEpisode {
		return nil, engine.Errorf(engine.EINVALID, "kind %q: want fact or episode", ch.Kind)
	}
	if ch.Importance < 0 || ch.Importance > 1 {
		return nil, engine.Errorf(engine.EINVALID, "importance %g: want a number from 0 to 1", ch.Importance)
	}
	typ := normalType(ch.Type)
	if ch.Importance == 0 {
		ch.Importance = typeImportance(typ)
	}
	items, err := openReviews(ctx, e.Store(), ids)
	if err != nil {
		return nil, err
	}
	strip := filter.New()
	mems := make([]*engine.Memory, len(items))
	for i, it := range items {
		if m, ok := e.MemoryByKey(it.MessageID); ok {
			return nil, engine.Errorf(engine.ECONFLICT, "message %s is memory %d already (%s); nothing was changed — see `memtrace show key:%s`", it.MessageID, m.ID, m.Status, it.MessageID)
		}
		it.Text, _ = RedactSecrets(it.Text) // a message held for its secrets (HoldSecrets) keeps none
		content := strings.TrimSpace(strip.StripMemoryTags(it.Text))
		mems[i] = &engine.Memory{Key: it.MessageID, Content: content, Kind: ch.Kind, Type: typ, Importance: ch.Importance,
			Scope: engine.ProjectScope(it.Project), Role: it.Role, Session: it.Session, CreatedAt: it.At, LastAccessedAt: it.At}
		if err := e.PrepareMemory(ctx, mems[i]); err != nil { // embeds outside the transaction
			return nil, err
		}
	}
	batch, err := reviewBatch(ctx, e, engine.BatchReviewStore)
	if err != nil {
		return nil, err
	}
	now := e.Now()
	a := engine.Actor{Name: ch.Curator, Batch: batch}
	err = e.Update(ctx, func(q engine.Queries) error {
		items, err := openReviews(ctx, q, ids) // as they are inside the transaction
		if err != nil {
			return err
		}
		for i, it := range items {
			mem := mems[i]
			it.Text, _ = RedactSecrets(it.Text)
			if err := q.InsertMemory(ctx, mem, a); err != nil {
				return fmt.Errorf("store review item %d: %w", it.ID, err)
			}
			why := fmt.Sprintf("%s stored review item %d by hand: memory %d, %s %s, importance %.2f", ch.Curator, it.ID, mem.ID, mem.Kind, mem.Type, mem.Importance)
			rec := &engine.CaptureRecord{MessageID: it.MessageID, Session: it.Session, Role: it.Role, Project: it.Project, Text: it.Text, At: it.At,
				Outcome: engine.OutcomeStored, MemoryID: mem.ID, Trail: []engine.Decision{{Layer: engine.LayerReview, Verdict: "store", Reason: why}}, CreatedAt: now}
			if err := q.InsertCapture(ctx, rec); err != nil {
				return err
			}
			it.Status, it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = engine.ReviewStored, mem.ID, ch.Curator, now, batch, "stored by hand"
			if err := q.SaveReview(ctx, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out, _, err := e.Store().FindReviews(ctx, engine.ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	return &ReviewDecision{Batch: batch, Items: out}, nil
}

// SkipReviews records a curator's decision that held items are not
// memories, in one transaction under a new batch ("review-skip-…") kept on
// each item; nothing in memories changes, and a skipped item can still be
// stored or offered again later. Each skip is logged in captures.
func SkipReviews(ctx context.Context, e *engine.Engine, ids []int64, reason, curator string) (*ReviewDecision, error) {
	if curator == "" {
		curator = engine.ProposerCurator
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "not a memory"
	}
	batch, err := reviewBatch(ctx, e, engine.BatchReviewSkip)
	if err != nil {
		return nil, err
	}
	now := e.Now()
	err = e.Store().Update(ctx, func(q engine.Queries) error {
		items, err := openReviews(ctx, q, ids)
		if err != nil {
			return err
		}
		for _, it := range items {
			it.Text, _ = RedactSecrets(it.Text) // the raw value of a held secret goes with the decision
			rec := &engine.CaptureRecord{MessageID: it.MessageID, Session: it.Session, Role: it.Role, Project: it.Project, Text: it.Text, At: it.At,
				Outcome: engine.OutcomeDropped, DroppedBy: engine.LayerReview, Reason: "curator_skip", CreatedAt: now,
				Trail: []engine.Decision{{Layer: engine.LayerReview, Verdict: "skip", Reason: fmt.Sprintf("%s skipped review item %d: %s", curator, it.ID, reason)}}}
			if err := q.InsertCapture(ctx, rec); err != nil {
				return err
			}
			it.Status, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = engine.ReviewSkipped, curator, now, batch, reason
			if err := q.SaveReview(ctx, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out, _, err := e.Store().FindReviews(ctx, engine.ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	return &ReviewDecision{Batch: batch, Items: out}, nil
}

// reviewBatch is a new batch id of kind from the database's counter.
func reviewBatch(ctx context.Context, e *engine.Engine, kind string) (string, error) {
	return e.Store().NextBatchID(ctx, kind)
}
