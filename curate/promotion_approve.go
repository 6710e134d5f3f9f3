package curate

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"memtrace/engine"
)

// maxRuleWording is the longest HOT rule, in characters: one line an agent
// reads every turn.
const maxRuleWording = 200

// ApprovePromotion marks a promote proposal approved with the HOT rule's
// wording the curator settled on (whitespace collapsed to one line of at
// most 200 characters). The wording is recorded in the proposal, so the
// apply that follows — the Curate tab's or `memtrace apply --approved` —
// writes exactly it. A wording equal to the proposed one records no edit.
func ApprovePromotion(ctx context.Context, w Updater, id int64, wording, by string, now time.Time) error {
	text := strings.Join(strings.Fields(wording), " ")
	if text == "" {
		return engine.Errorf(engine.EINVALID, "the HOT rule's wording is empty; type the rule or press esc")
	}
	if n := len([]rune(text)); n > maxRuleWording {
		return engine.Errorf(engine.EINVALID, "the HOT rule's wording is %d characters; shorten it to %d", n, maxRuleWording)
	}
	if by == "" {
		by = engine.ActorCurator
	}
	return w.Update(ctx, func(q engine.Queries) error {
		p, err := q.GetProposal(ctx, id)
		if err != nil {
			return err
		}
		if p.Kind != engine.ProposalPromote {
			return engine.Errorf(engine.EINVALID, "proposal %d is a %s proposal; only a promotion has a wording", id, p.Kind)
		}
		switch p.Status {
		case engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved:
		default:
			return engine.Errorf(engine.ECONFLICT, "proposal %d is already %s; roll its batch back instead", id, p.Status)
		}
		ev, err := engine.ParsePromotion(p)
		if err != nil {
			return err
		}
		// Edit the stored evidence in place, keeping every field this
		// version does not know.
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(p.Verdict, &fields); err != nil {
			return engine.Errorf(engine.EINVALID, "proposal %d carries no lesson; re-run `memtrace heartbeat`", id)
		}
		if text == ev.Wording {
			delete(fields, "curator_wording")
		} else if fields["curator_wording"], err = json.Marshal(text); err != nil {
			return err
		}
		if p.Verdict, err = json.Marshal(fields); err != nil {
			return err
		}
		p.Status, p.DecidedBy, p.DecidedAt = engine.ProposalApproved, by, now.UTC()
		return q.UpdateProposal(ctx, p)
	})
}

// unpromoteLesson returns the lesson of a rolled-back promotion to
// candidate, so that it can be decided again.
func unpromoteLesson(ctx context.Context, q engine.Queries, p *engine.Proposal) error {
	if p.Kind != engine.ProposalPromote {
		return nil
	}
	ev, err := engine.ParsePromotion(p)
	if err != nil {
		return nil // no lesson to return
	}
	c, err := q.GetCorrection(ctx, ev.LessonKey)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	if c.Status != engine.CorrectionPromoted {
		return nil
	}
	c.Status = engine.CorrectionCandidate
	return q.SaveCorrection(ctx, c)
}
