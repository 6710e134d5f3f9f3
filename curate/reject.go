package curate

import (
	"context"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
)

// Rejection is undoable. A curator's rejection is a batch of its own (a
// curator batch id from the database's counter): each rejected proposal
// keeps that batch and the status the rejection moved it from
// (PriorStatus), so Rollback of the batch returns every one of them there
// — pending, needs_review or approved — and gives a rejected promotion's
// lesson back to the heartbeat. A rejection changes no memory, so it has no
// audit rows; BatchHistory lists it beside the audited batches.

// RejectOptions configure RejectProposalsInBatch.
type RejectOptions struct {
	Curator string // "" → curator
	Reason  string // kept with the proposal (RejectNote)
	Now     time.Time
}

// RejectResult is what a rejection did: how many proposals it rejected and
// the batch that `memtrace rollback BATCH` (or the TUI's undo) reverses.
type RejectResult struct {
	Rejected int    `json:"rejected"`
	Batch    string `json:"batch"`
}

// RejectProposalsInBatch rejects proposals in one transaction and one
// batch. An open proposal (pending, needs_review, approved but not applied)
// may be rejected; one that is rejected already is left as it is; anything
// else refuses the whole call and writes nothing.
func RejectProposalsInBatch(ctx context.Context, w Updater, ids []int64, o RejectOptions) (*RejectResult, error) {
	if len(ids) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "no proposals to reject; list them with `memtrace proposals`")
	}
	if o.Curator == "" {
		o.Curator = engine.ActorCurator
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	reason := strings.TrimSpace(o.Reason)
	var res RejectResult
	err := w.Update(ctx, func(q engine.Queries) error {
		res = RejectResult{}
		rec := &rejectionRecord{Actor: o.Curator, At: o.Now.UTC(), Note: reason}
		for _, id := range ids {
			p, err := q.GetProposal(ctx, id)
			if err != nil {
				return err
			}
			switch p.Status {
			case engine.ProposalRejected:
				continue
			case engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved:
			default:
				return engine.Errorf(engine.ECONFLICT, "proposal %d is %s, not open; nothing was rejected", id, p.Status)
			}
			if res.Batch == "" {
				if res.Batch, err = q.NextBatchID(ctx, engine.BatchCurator); err != nil {
					return err
				}
			}
			rec.Proposals = append(rec.Proposals, rejectedProposal{ID: p.ID, Prior: p.Status})
			p.PriorStatus, p.Status, p.RejectNote = p.Status, engine.ProposalRejected, reason
			p.DecidedBy, p.DecidedAt, p.Batch = o.Curator, o.Now.UTC(), res.Batch
			if err := q.UpdateProposal(ctx, p); err != nil {
				return err
			}
			if err := setLessonStatus(ctx, q, p, "", engine.CorrectionRejected); err != nil {
				return err
			}
			res.Rejected++
		}
		if res.Batch == "" {
			return nil
		}
		return saveRejectionRecord(ctx, q, res.Batch, rec, true)
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// setLessonStatus moves a promotion's lesson to status to when it has
// status from (any status when from is ""); other proposals have no lesson.
func setLessonStatus(ctx context.Context, q engine.Queries, p *engine.Proposal, from, to string) error {
	if p.Kind != engine.ProposalPromote {
		return nil
	}
	ev, err := engine.ParsePromotion(p)
	if err != nil {
		return nil // no lesson to change
	}
	c, err := q.GetCorrection(ctx, ev.LessonKey)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	if c.Status == to || (from != "" && c.Status != from) {
		return nil
	}
	c.Status = to
	return q.SaveCorrection(ctx, c)
}

// rejectedIn are the proposals batch rejected (and that are still rejected).
func rejectedIn(ctx context.Context, q engine.Queries, batch string) ([]*engine.Proposal, error) {
	return q.FindProposals(ctx, engine.ProposalFilter{Batch: batch, Status: engine.ProposalRejected})
}

// unreject returns the proposals a rejection batch rejected to the status
// they had before it, without the rejection's note.
func unreject(ctx context.Context, q engine.Queries, ps []*engine.Proposal) error {
	for _, p := range ps {
		prior := p.PriorStatus
		if prior == "" {
			prior = engine.ProposalPending // rejected before memtrace kept the prior status
		}
		p.Status, p.PriorStatus, p.RejectNote, p.Batch = prior, "", "", ""
		if prior == engine.ProposalPending || prior == engine.ProposalReview {
			p.DecidedBy, p.DecidedAt = "", time.Time{}
		}
		if err := q.UpdateProposal(ctx, p); err != nil {
			return err
		}
		if err := setLessonStatus(ctx, q, p, engine.CorrectionRejected, engine.CorrectionCandidate); err != nil {
			return err
		}
	}
	return nil
}

// BatchHistory is the batch history of the CLI and the TUI: the audited
// batches (Queries.Batches), the rejections, which change no memory and
// so have no audit rows (their records, rejectionBatches, with their
// rollbacks), and the policy batches (PolicyBatches), newest first, at
// most limit (0: all).
func BatchHistory(ctx context.Context, q engine.Queries, limit int) ([]engine.BatchInfo, error) {
	out, err := q.Batches(ctx, limit)
	if err != nil {
		return nil, err
	}
	rejected, err := q.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalRejected})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, b := range out {
		seen[b.Batch] = true
	}
	open := map[string]int{}
	for _, p := range rejected {
		open[p.Batch]++
	}
	extra, err := rejectionBatches(ctx, q, open)
	if err != nil {
		return nil, err
	}
	for _, b := range extra {
		seen[b.Batch] = true
	}
	// Rejections written before their records: listed from the proposals
	// they still hold.
	idx := map[string]int{}
	for _, p := range rejected {
		if p.Batch == "" || seen[p.Batch] {
			continue
		}
		i, ok := idx[p.Batch]
		if !ok {
			kind, _, err := q.BatchKind(ctx, p.Batch)
			if err != nil {
				return nil, err
			}
			i = len(extra)
			idx[p.Batch] = i
			extra = append(extra, engine.BatchInfo{Batch: p.Batch, Kind: kind, Actor: p.DecidedBy, At: p.DecidedAt, CanRollback: true})
		}
		extra[i].Rows++
		extra[i].Effect.Rejected++
	}
	// The audited batches keep their order; each rejection and each policy
	// batch goes before the first of them that is older.
	sort.SliceStable(extra, func(i, j int) bool { return newer(extra[i], extra[j]) })
	out = mergeNewest(out, extra)
	pol, err := PolicyBatches(ctx, q)
	if err != nil {
		return nil, err
	}
	out = mergePolicy(out, pol)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
