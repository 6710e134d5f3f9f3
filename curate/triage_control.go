package curate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/wording"
)

// markControlSample marks a seeded random sample of the fresh proposals as
// the control sample, topping up to n the ones already marked (a rerun keeps
// its earlier sample and the curator's labels). Proposals that need review
// are not sampled: there is no verdict to compare with.
func markControlSample(ctx context.Context, q engine.Queries, fresh []*engine.Proposal, typ string, n int, seed uint64) ([]int64, error) {
	var marked []int64
	var candidates []*engine.Proposal
	for _, p := range fresh {
		pv, ok := ParseProposalVerdict(p)
		switch {
		case !ok || p.Status != engine.ProposalPending:
		case pv.Control:
			marked = append(marked, p.ID)
		default:
			candidates = append(candidates, p)
		}
	}
	sort.Slice(candidates, func(i, j int) bool { return candidates[i].ID < candidates[j].ID })
	need := min(n-len(marked), len(candidates))
	if need <= 0 {
		return marked, nil
	}
	// The seed and the population fix the sample: rerunning with the same
	// seed picks the same items.
	r := rand.New(rand.NewPCG(seed, uint64(len(typ))))
	for _, i := range r.Perm(len(candidates))[:need] {
		p := candidates[i]
		pv, _ := ParseProposalVerdict(p)
		pv.Control = true
		raw, _ := json.Marshal(pv)
		p.Verdict = raw
		if err := q.UpdateProposal(ctx, p); err != nil {
			return nil, err
		}
		marked = append(marked, p.ID)
	}
	sort.Slice(marked, func(i, j int) bool { return marked[i] < marked[j] })
	return marked, nil
}

// ValidCuratorLabel reports whether label is a triage label a curator may
// give: keep, echo, roleplay_scene or retype:<type>.
func ValidCuratorLabel(label string) bool {
	switch label {
	case engine.TriageKeep, engine.TriageEcho, engine.TriageRoleplay:
		return true
	}
	t, ok := strings.CutPrefix(label, engine.TriageRetype+":")
	return ok && strings.TrimSpace(t) != ""
}

// triageClass is the action a label leads to: keep, quarantine (echo and
// roleplay_scene) or retype. Agreement is measured on actions, because
// echo and roleplay_scene lead to the same reversible quarantine.
func triageClass(label string) string {
	switch {
	case label == engine.TriageKeep:
		return "keep"
	case label == engine.TriageEcho || label == engine.TriageRoleplay:
		return "quarantine"
	case strings.HasPrefix(label, engine.TriageRetype):
		return "retype"
	}
	return ""
}

// Updater runs fn in one transaction; engine.Store and *Engine both are one.
type Updater interface {
	Update(ctx context.Context, fn func(q engine.Queries) error) error
}

// LabelControl records the curator's blind label of a control-sample
// proposal. It decides nothing: approval is a separate step.
func LabelControl(ctx context.Context, w Updater, id int64, label string) error {
	if !ValidCuratorLabel(label) {
		return engine.Errorf(engine.EINVALID, "label %q is not keep, echo, roleplay_scene or retype:<type>", label)
	}
	return w.Update(ctx, func(q engine.Queries) error {
		p, err := q.GetProposal(ctx, id)
		if err != nil {
			return err
		}
		pv, ok := ParseProposalVerdict(p)
		if !ok || !pv.Control {
			return engine.Errorf(engine.EINVALID, "proposal %d is not in the control sample", id)
		}
		pv.CuratorLabel = label
		p.Verdict, _ = json.Marshal(pv)
		return q.UpdateProposal(ctx, p)
	})
}

// ControlPair is one labelled control item: what the judge said and what
// the curator said without seeing it.
type ControlPair struct {
	ProposalID int64  `json:"proposal_id"`
	MemoryID   int64  `json:"memory_id"`
	Judge      string `json:"judge"`
	Curator    string `json:"curator"`
}

// ControlStats compares the judge with the curator's blind labels.
//
// Agreement and Cohen's κ are over actions (keep / quarantine / retype).
// A false keep is an item the judge kept and the curator would quarantine —
// seed 001's first failure, caught because 23 of 50 expected junk came back
// "real". A false quarantine is an item the judge would quarantine that the
// curator says is real (keep or retype): the genuine memory the keyword
// shortcut would have lost.
type ControlStats struct {
	Sample           int           `json:"sample"`
	Labelled         int           `json:"labelled"`
	Agree            int           `json:"agree"`
	Agreement        float64       `json:"agreement"` // fraction 0..1 of labelled
	Kappa            float64       `json:"kappa"`
	FalseKeeps       int           `json:"false_keeps"`
	FalseQuarantines int           `json:"false_quarantines"`
	Pairs            []ControlPair `json:"pairs"`
}

// Done reports whether every control item has been labelled.
func (s ControlStats) Done() bool { return s.Sample > 0 && s.Labelled == s.Sample }

// ComputeControlStats reads the control sample among ps (judge proposals
// with the control mark, whatever their status).
func ComputeControlStats(ps []*engine.Proposal) ControlStats {
	var s ControlStats
	judgeN, curatorN := map[string]int{}, map[string]int{}
	for _, p := range ps {
		pv, ok := ParseProposalVerdict(p)
		if !ok || !pv.Control {
			continue
		}
		s.Sample++
		if pv.CuratorLabel == "" {
			continue
		}
		s.Labelled++
		j, c := triageClass(pv.Label()), triageClass(pv.CuratorLabel)
		s.Pairs = append(s.Pairs, ControlPair{ProposalID: p.ID, MemoryID: p.MemoryID, Judge: pv.Label(), Curator: pv.CuratorLabel})
		judgeN[j]++
		curatorN[c]++
		if j == c {
			s.Agree++
		}
		if j == "keep" && c == "quarantine" {
			s.FalseKeeps++
		}
		if j == "quarantine" && (c == "keep" || c == "retype") {
			s.FalseQuarantines++
		}
	}
	if s.Labelled == 0 {
		return s
	}
	n := float64(s.Labelled)
	po := float64(s.Agree) / n
	pe := 0.0
	for class, jn := range judgeN {
		pe += float64(jn) / n * float64(curatorN[class]) / n
	}
	s.Agreement = po
	switch {
	case pe < 1:
		s.Kappa = (po - pe) / (1 - pe)
	case po == 1:
		// Both raters used one and the same class for everything: perfect
		// agreement, though κ is formally undefined.
		s.Kappa = 1
	}
	return s
}

// String is the one-line summary the CLI and the Curate tab show.
func (s ControlStats) String() string {
	if s.Labelled == 0 {
		return fmt.Sprintf("control sample: 0 of %d labelled", s.Sample)
	}
	return fmt.Sprintf("control sample: %d of %d labelled · agreement %.0f%% · κ %.2f · false keeps %d · false quarantines %d",
		s.Labelled, s.Sample, 100*s.Agreement, s.Kappa, s.FalseKeeps, s.FalseQuarantines)
}

// unlabelledControl counts open control proposals still waiting for the
// curator's blind label.
func unlabelledControl(ctx context.Context, q engine.Queries) (int, error) {
	ps, err := q.FindProposals(ctx, engine.ProposalFilter{Proposer: engine.ProposerJudge, Status: engine.ProposalPending})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range ps {
		if pv, ok := ParseProposalVerdict(p); ok && pv.Control && pv.CuratorLabel == "" {
			n++
		}
	}
	return n, nil
}

// DecideProposals sets the curator's decision — approved or rejected — on
// proposals, in one transaction. Judge proposals cannot be approved while
// the control sample still has items the curator has not labelled blind,
// and an answer that needs review cannot be approved as it stands (override
// it with a label instead). Applied and rolled-back proposals are final.
func DecideProposals(ctx context.Context, w Updater, ids []int64, status, by string, now time.Time) (int, error) {
	if status != engine.ProposalApproved && status != engine.ProposalRejected {
		return 0, engine.Errorf(engine.EINVALID, "a decision is approved or rejected, not %q", status)
	}
	n := 0
	err := w.Update(ctx, func(q engine.Queries) error {
		n = 0
		left := -1
		for _, id := range ids {
			p, err := q.GetProposal(ctx, id)
			if err != nil {
				return err
			}
			switch p.Status {
			case engine.ProposalApplied, engine.ProposalRolledBack:
				return engine.Errorf(engine.ECONFLICT, "proposal %d is already %s; roll its batch back instead", id, p.Status)
			case engine.ProposalReview:
				if status == engine.ProposalApproved {
					return engine.Errorf(engine.EINVALID, "proposal %d needs review: the judge's answer was invalid; give it a label (keep, echo, retype) or reject it", id)
				}
			}
			if status == engine.ProposalApproved && p.Proposer == engine.ProposerJudge {
				if left < 0 {
					if left, err = unlabelledControl(ctx, q); err != nil {
						return err
					}
				}
				if left > 0 {
					return engine.Errorf(engine.ECONFLICT, "label the control sample first: %s still to judge blind before approving judge verdicts", wording.Count(left, "item"))
				}
			}
			if p.Status == status {
				continue
			}
			if status == engine.ProposalApproved {
				if err := checkDecision(ctx, q, p); err != nil {
					return err
				}
			}
			p.Status, p.DecidedBy, p.DecidedAt = status, by, now.UTC()
			if err := q.UpdateProposal(ctx, p); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// OverrideProposal replaces the judge's verdict with the curator's label
// and approves it: keep → a keep record, echo/roleplay_scene → quarantine,
// retype:<type> → retype to that type. The judge's verdict JSON is kept.
func OverrideProposal(ctx context.Context, w Updater, id int64, label, by string, now time.Time) error {
	if !ValidCuratorLabel(label) {
		return engine.Errorf(engine.EINVALID, "label %q is not keep, echo, roleplay_scene or retype:<type>", label)
	}
	return w.Update(ctx, func(q engine.Queries) error {
		p, err := q.GetProposal(ctx, id)
		if err != nil {
			return err
		}
		if p.Status == engine.ProposalApplied || p.Status == engine.ProposalRolledBack {
			return engine.Errorf(engine.ECONFLICT, "proposal %d is already %s", id, p.Status)
		}
		if !isJudgeKind(p.Kind) {
			return engine.Errorf(engine.EINVALID, "proposal %d is a %s proposal; only judge verdicts can be relabelled", id, p.Kind)
		}
		switch triageClass(label) {
		case "keep":
			p.Kind, p.TargetType = engine.ProposalKeep, ""
		case "quarantine":
			p.Kind, p.TargetType = engine.ProposalQuarantine, ""
		case "retype":
			p.Kind, p.TargetType = engine.ProposalRetype, strings.TrimPrefix(label, engine.TriageRetype+":")
		}
		if err := checkDecision(ctx, q, p); err != nil {
			return err
		}
		p.Status, p.DecidedBy, p.DecidedAt = engine.ProposalApproved, by, now.UTC()
		p.Reason = strings.TrimSpace(fmt.Sprintf("curator: %s (judge: %s)", label, p.Reason))
		return q.UpdateProposal(ctx, p)
	})
}
