package tiers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"memtrace/engine"
)

// PromotionProposal builds the promote proposal of a candidate lesson,
// asking the reviewer first when there is one.
func PromotionProposal(ctx context.Context, e *engine.Engine, c *engine.Correction, rev engine.PromotionReviewer) (*engine.Proposal, error) {
	scope := c.Scope
	if !engine.ValidScope(scope) {
		scope = engine.ScopeGlobal
	}
	ev := engine.PromotionEvidence{
		LessonKey: c.LessonKey, Lesson: c.Lesson, Context: c.Context, Correction: c.Correction,
		Scope: scope, Count: c.Count, Occurrences: c.Occurrences, Wording: lessonWording(c),
	}
	p := &engine.Proposal{
		Kind: engine.ProposalPromote, TargetType: string(engine.TierHot), Proposer: engine.ProposerHeartbeat, Status: engine.ProposalPending,
		Reason: fmt.Sprintf("lesson %q seen %d times (threshold %d)", c.LessonKey, c.Count, engine.PromotionThreshold),
	}
	if m, ok := e.MemoryByKey(engine.LessonMemoryKey(c.LessonKey)); ok {
		p.MemoryID = m.ID
	}
	if rev != nil {
		v, err := rev.Review(ctx, *c)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("review lesson %s with %s: %w", c.LessonKey, rev.Name(), err)
			}
			// The review is advice: a reviewer that cannot answer leaves
			// the proposal for the curator, saying why, and the heartbeat
			// goes on.
			v = engine.PromotionVerdict{NeedsReview: true, Reason: fmt.Sprintf("%s could not review: %s", rev.Name(), engine.ErrorMessage(err))}
		}
		if !v.NeedsReview {
			if verr := engine.ValidatePromotionVerdict(v); verr != nil {
				v.NeedsReview = true
				v.Reason = strings.TrimSpace(v.Reason + " [invalid: " + engine.ErrorMessage(verr) + "]")
			}
		}
		ev.Review = &v
		p.Model, p.PromptHash, p.Confidence = v.Model, v.PromptHash, v.Confidence
		if v.NeedsReview {
			p.Status = engine.ProposalReview
			if err != nil {
				p.Reason += "; " + v.Reason
			} else {
				p.Reason += "; the reviewer's answer did not validate"
			}
		} else {
			if v.Wording != "" {
				ev.Wording = strings.TrimSpace(v.Wording)
			}
			if v.Scope != "" {
				ev.Scope = v.Scope
			}
			if v.Verdict == engine.PromoteVerdictKeepWarm {
				p.TargetType = string(engine.TierWarm)
			}
			p.Reason += fmt.Sprintf("; %s says %s: %s", rev.Name(), v.Verdict, v.Reason)
		}
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("promotion evidence: %w", err)
	}
	p.Verdict = raw
	return p, nil
}

// lessonWording is the HOT rule text proposed without a reviewer: the
// lesson, else the correction.
func lessonWording(c *engine.Correction) string {
	for _, s := range []string{c.Lesson, c.Correction, c.Context, c.LessonKey} {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			return s
		}
	}
	return c.LessonKey
}
