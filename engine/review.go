package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"memtrace/engine/filter"
)

// The review queue holds the captures the judge could not decide: its
// answer did not validate (needs_review). A held message is never lost —
// it is not dropped and not acted on; it waits, with the validation
// reason, until the judge is asked again (Capturer.Reoffer) or a curator
// stores or skips it by hand (Engine.StoreReviews, Engine.SkipReviews).

// OutcomeHeld is the outcome of a capture the judge held as needs_review:
// it waits in the review queue. It is neither stored nor dropped.
const OutcomeHeld = "held"

// LayerReview names the review queue in decision trails and captures: a
// re-offer of a held message, or a curator's decision on it.
const LayerReview = "review"

// Review item statuses.
const (
	ReviewHeld       = "held"
	ReviewStored     = "stored"     // became a memory (judge on retry, or curator)
	ReviewReinforced = "reinforced" // on retry it duplicated an active memory
	ReviewDropped    = "dropped"    // on retry the judge (or a filter) dropped it
	ReviewSkipped    = "skipped"    // the curator decided it is not a memory
)

// ReviewItem is one held capture.
type ReviewItem struct {
	ID        int64     `json:"id"`
	MessageID string    `json:"message_id"`
	Session   string    `json:"session"`
	Role      string    `json:"role"`
	Project   string    `json:"project,omitempty"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	Reason    string    `json:"reason"`          // why the judge's answer was held
	Judge     string    `json:"judge,omitempty"` // "judge:<model>" that held it last
	Attempts  int       `json:"attempts"`        // offers to the judge that ended held
	Status    string    `json:"status"`
	MemoryID  int64     `json:"memory_id,omitempty"`
	DecidedBy string    `json:"decided_by,omitempty"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
	Batch     string    `json:"batch,omitempty"`
	Note      string    `json:"note,omitempty"` // the decision's reason
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Message is the held message as it was offered.
func (r *ReviewItem) Message() Message {
	return Message{ID: r.MessageID, Session: r.Session, Role: r.Role, Text: r.Text, At: r.At, Project: r.Project}
}

// Open reports whether a curator or the judge may still decide the item:
// it is held, or a curator skipped it (a skip can be reconsidered), or the
// judge dropped it on a retry.
func (r *ReviewItem) Open() bool {
	return r.Status == ReviewHeld || r.Status == ReviewSkipped || r.Status == ReviewDropped
}

// ReviewFilter selects review items; zero fields select everything.
type ReviewFilter struct {
	Status string
	IDs    []int64
	Batch  string
	Limit  int
	Offset int
}

// ReviewQueries is the part of Queries that keeps the review queue.
type ReviewQueries interface {
	// SaveReview inserts the item, or updates the one with the same
	// MessageID, and sets r.ID.
	SaveReview(ctx context.Context, r *ReviewItem) error
	// FindReviews returns the items matching f in id order, and how many
	// match in all.
	FindReviews(ctx context.Context, f ReviewFilter) ([]*ReviewItem, int, error)
	// GetReviewByMessage returns the item of a message id, or ENOTFOUND.
	GetReviewByMessage(ctx context.Context, messageID string) (*ReviewItem, error)
}

// Reoffer offers held review items to the capturer's judge again, through
// the whole pipeline (L1, L2, the judge, the gates, dedupe), in one
// transaction. Each offer is logged in captures like any other; an item
// the judge decides leaves the queue as stored, reinforced or dropped, one
// it holds again stays held with the new reason. A judge that fails keeps
// the item held: the rules never decide in its place here.
// It returns the batch id the offers were written under.
func (c *Capturer) Reoffer(ctx context.Context, items []*ReviewItem) (string, []*CaptureResult, error) {
	if len(items) == 0 {
		return "", nil, nil
	}
	ps := make([]*pending, len(items))
	for i, it := range items {
		if !it.Open() {
			return "", nil, Errorf(ECONFLICT, "review item %d is %s already; only held, skipped or dropped items can be offered again", it.ID, it.Status)
		}
		m := it.Message()
		m.At = m.At.UTC()
		ps[i] = &pending{msg: m, review: it, res: &CaptureResult{MessageID: m.ID, Key: m.ID, Trail: []Decision{{
			Layer: LayerReview, Verdict: "reoffer",
			Reason: fmt.Sprintf("review item %d offered again to %s (%s %d time(s): %s)", it.ID, c.decider, it.Status, it.Attempts, it.Reason),
		}}}}
	}
	batch, err := c.e.reviewBatch(ctx, BatchReviewRetry)
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
		case ErrorCode(err) == ENOTFOUND:
			it = &ReviewItem{}
		default:
			return err
		}
	}
	it.MessageID, it.Session, it.Role, it.Project, it.Text, it.At = m.ID, m.Session, m.Role, m.Project, m.Text, m.At
	if p.held != nil {
		it.Status, it.Reason, it.Judge = ReviewHeld, p.held.Reason, p.held.Judge
		it.Attempts++
		it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = 0, "", time.Time{}, "", ""
	} else {
		switch r.Outcome {
		case OutcomeStored:
			it.Status = ReviewStored
		case OutcomeReinforced:
			it.Status = ReviewReinforced
		default:
			it.Status = ReviewDropped
		}
		it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch = r.MemoryID, r.Decider, w.c.e.Now(), w.actor.Batch
		switch {
		case r.DroppedBy != "":
			it.Note = r.DroppedBy + ": " + r.Reason
		case r.Outcome == OutcomeStored:
			it.Note = fmt.Sprintf("stored by %s: %s %s", r.Decider, r.Kind, r.Type)
		case r.Outcome == OutcomeReinforced:
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
	Kind       Kind    // "": fact
	Type       string  // "": note
	Importance float64 // 0: the type's default
	Curator    string  // "": curator
}

// ReviewDecision is the result of storing or skipping review items by hand.
type ReviewDecision struct {
	Batch string        `json:"batch"`
	Items []*ReviewItem `json:"items"`
}

// openReviews reads the review items ids name, all of which must exist
// and be open.
func openReviews(ctx context.Context, q Queries, ids []int64) ([]*ReviewItem, error) {
	if len(ids) == 0 {
		return nil, Errorf(EINVALID, "name the review items (`memtrace review list` shows their ids)")
	}
	items, _, err := q.FindReviews(ctx, ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	byID := map[int64]*ReviewItem{}
	for _, it := range items {
		byID[it.ID] = it
	}
	out := make([]*ReviewItem, 0, len(ids))
	for _, id := range ids {
		it, ok := byID[id]
		switch {
		case !ok:
			return nil, Errorf(ENOTFOUND, "review item %d does not exist; `memtrace review list --status all` shows them", id)
		case !it.Open():
			return nil, Errorf(ECONFLICT, "review item %d is %s already (memory %d); nothing was changed", id, it.Status, it.MemoryID)
		}
		out = append(out, it)
	}
	return out, nil
}

// StoreReviews makes held items memories by a curator's hand — no judge,
// no gates, like `memtrace add`, with the message's id as the key — in one
// transaction audited under a new batch ("review-store-…"), which `rollback`
// undoes. Each store is logged in captures.
func (e *Engine) StoreReviews(ctx context.Context, ids []int64, ch ReviewChoice) (*ReviewDecision, error) {
	if ch.Curator == "" {
		ch.Curator = ProposerCurator
	}
	if ch.Kind == "" {
		ch.Kind = KindFact
	}
	if ch.Kind != KindFact && ch.Kind != KindEpisode {
		return nil, Errorf(EINVALID, "kind %q: want fact or episode", ch.Kind)
	}
	if ch.Importance < 0 || ch.Importance > 1 {
		return nil, Errorf(EINVALID, "importance %g: want a number from 0 to 1", ch.Importance)
	}
	typ := normalType(ch.Type)
	if ch.Importance == 0 {
		ch.Importance = typeImportance(typ)
	}
	items, err := openReviews(ctx, e.store, ids)
	if err != nil {
		return nil, err
	}
	strip := filter.New()
	mems := make([]*Memory, len(items))
	for i, it := range items {
		if m, ok := e.MemoryByKey(it.MessageID); ok {
			return nil, Errorf(ECONFLICT, "message %s is memory %d already (%s); nothing was changed — see `memtrace show key:%s`", it.MessageID, m.ID, m.Status, it.MessageID)
		}
		content := strings.TrimSpace(strip.StripMemoryTags(it.Text))
		mems[i] = &Memory{Key: it.MessageID, Content: content, Kind: ch.Kind, Type: typ, Importance: ch.Importance,
			Scope: ProjectScope(it.Project), Role: it.Role, Session: it.Session, CreatedAt: it.At, LastAccessedAt: it.At}
		if err := e.PrepareMemory(ctx, mems[i]); err != nil { // embeds outside the transaction
			return nil, err
		}
	}
	batch, err := e.reviewBatch(ctx, BatchReviewStore)
	if err != nil {
		return nil, err
	}
	now := e.Now()
	a := Actor{Name: ch.Curator, Batch: batch}
	err = e.Update(ctx, func(q Queries) error {
		items, err := openReviews(ctx, q, ids) // as they are inside the transaction
		if err != nil {
			return err
		}
		for i, it := range items {
			mem := mems[i]
			if err := q.InsertMemory(ctx, mem, a); err != nil {
				return fmt.Errorf("store review item %d: %w", it.ID, err)
			}
			why := fmt.Sprintf("%s stored review item %d by hand: memory %d, %s %s, importance %.2f", ch.Curator, it.ID, mem.ID, mem.Kind, mem.Type, mem.Importance)
			rec := &CaptureRecord{MessageID: it.MessageID, Session: it.Session, Role: it.Role, Project: it.Project, Text: it.Text, At: it.At,
				Outcome: OutcomeStored, MemoryID: mem.ID, Trail: []Decision{{Layer: LayerReview, Verdict: "store", Reason: why}}, CreatedAt: now}
			if err := q.InsertCapture(ctx, rec); err != nil {
				return err
			}
			it.Status, it.MemoryID, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = ReviewStored, mem.ID, ch.Curator, now, batch, "stored by hand"
			if err := q.SaveReview(ctx, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out, _, err := e.store.FindReviews(ctx, ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	return &ReviewDecision{Batch: batch, Items: out}, nil
}

// SkipReviews records a curator's decision that held items are not
// memories, in one transaction under a new batch ("review-skip-…") kept on
// each item; nothing in memories changes, and a skipped item can still be
// stored or offered again later. Each skip is logged in captures.
func (e *Engine) SkipReviews(ctx context.Context, ids []int64, reason, curator string) (*ReviewDecision, error) {
	if curator == "" {
		curator = ProposerCurator
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "not a memory"
	}
	batch, err := e.reviewBatch(ctx, BatchReviewSkip)
	if err != nil {
		return nil, err
	}
	now := e.Now()
	err = e.store.Update(ctx, func(q Queries) error {
		items, err := openReviews(ctx, q, ids)
		if err != nil {
			return err
		}
		for _, it := range items {
			rec := &CaptureRecord{MessageID: it.MessageID, Session: it.Session, Role: it.Role, Project: it.Project, Text: it.Text, At: it.At,
				Outcome: OutcomeDropped, DroppedBy: LayerReview, Reason: "curator_skip", CreatedAt: now,
				Trail: []Decision{{Layer: LayerReview, Verdict: "skip", Reason: fmt.Sprintf("%s skipped review item %d: %s", curator, it.ID, reason)}}}
			if err := q.InsertCapture(ctx, rec); err != nil {
				return err
			}
			it.Status, it.DecidedBy, it.DecidedAt, it.Batch, it.Note = ReviewSkipped, curator, now, batch, reason
			if err := q.SaveReview(ctx, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out, _, err := e.store.FindReviews(ctx, ReviewFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	return &ReviewDecision{Batch: batch, Items: out}, nil
}

// reviewBatch is a new batch id of kind from the database's counter.
func (e *Engine) reviewBatch(ctx context.Context, kind string) (string, error) {
	return e.store.NextBatchID(ctx, kind)
}
