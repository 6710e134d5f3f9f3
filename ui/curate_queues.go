package ui

import "memtrace/engine"

// The Curate tab's queues: which proposals are open, under which queue,
// and where the cursors may stand.

// controlItems are the control-sample proposals, labelled or not, in id
// order.
func (p curatePane) controlItems() []*engine.Proposal {
	var out []*engine.Proposal
	for _, pr := range p.props {
		if pv, ok := engine.ParseProposalVerdict(pr); ok && pv.Control && isOpen(pr) {
			out = append(out, pr)
		}
	}
	return out
}

// firstNonEmptyQueue is the index of the first queue with an open
// proposal, so the tab opens on work rather than on an empty list; the
// current queue when every queue is empty.
func (p curatePane) firstNonEmptyQueue() int {
	for i, kind := range curateKinds() {
		for _, pr := range p.props {
			if isOpen(pr) && queueKind(pr) == kind {
				return i
			}
		}
	}
	return p.kindIdx
}

// queueKind is the kind a proposal is queued under.
func queueKind(pr *engine.Proposal) string {
	if pr.Status == engine.ProposalReview {
		return curateReview
	}
	return pr.Kind
}

// isOpen: pending, needing review, or approved and waiting to be applied.
func isOpen(pr *engine.Proposal) bool {
	return pr.Status == engine.ProposalPending || pr.Status == engine.ProposalReview || pr.Status == engine.ProposalApproved
}

func (p curatePane) queue() []*engine.Proposal {
	kind := curateKinds()[p.kindIdx]
	var out []*engine.Proposal
	for _, pr := range p.props {
		if isOpen(pr) && queueKind(pr) == kind && (p.matchProp == nil || p.matchProp(pr)) {
			out = append(out, pr)
		}
	}
	// The most consequential first (the heartbeat's score: importance ×
	// (1 + reach)); proposals without a score keep their order.
	engine.SortProposalsByScore(out)
	return out
}

func (p curatePane) proposal(id int64) *engine.Proposal {
	for _, pr := range p.props {
		if pr.ID == id {
			return pr
		}
	}
	return nil
}

func (p *curatePane) clampCursors() {
	n := len(p.queue())
	if p.mode == modeControl {
		n = len(p.controlItems())
	}
	p.cursor = max(0, min(p.cursor, n-1))
	p.held.list = p.held.list.clampCursor()
	p.hist.list = p.hist.list.clampCursor()
	p.sup.list = p.sup.list.clampCursor()
}
