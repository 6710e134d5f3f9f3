package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Promotion review verdicts.
const (
	PromoteVerdictPromote  = "promote"
	PromoteVerdictKeepWarm = "keep_warm"
	PromoteVerdictReject   = "reject"
)

// PromotionVerdictSchema is the JSON schema of a promotion review answer
// (sent as Ollama's `format`): the judge proposes the HOT rule's wording and
// scope, and a verdict with its reason.
const PromotionVerdictSchema = `{"type":"object","properties":{` +
	`"verdict":{"type":"string","enum":["promote","keep_warm","reject"]},` +
	`"wording":{"type":"string"},"scope":{"type":"string"},` +
	`"reason":{"type":"string"},"confidence":{"type":"number","minimum":0,"maximum":1}},` +
	`"required":["verdict","wording","scope","reason","confidence"]}`

// PromotionVerdict is a reviewer's answer for one promotion candidate.
type PromotionVerdict struct {
	Verdict    string  `json:"verdict"`
	Wording    string  `json:"wording"`
	Scope      string  `json:"scope"`
	Reason     string  `json:"reason"`
	Confidence float64 `json:"confidence"`
	// Set by the reviewer client, not the model: an answer that did not
	// validate is needs_review and is never acted upon.
	NeedsReview bool   `json:"needs_review,omitempty"`
	Model       string `json:"model,omitempty"`
	PromptHash  string `json:"prompt_hash,omitempty"`
}

// PromotionReviewer reviews a promotion candidate before the curator sees
// it (the local Ollama judge implements it). Promotion is never automatic:
// the review only proposes wording, scope and a verdict.
type PromotionReviewer interface {
	Name() string
	Review(ctx context.Context, c Correction) (PromotionVerdict, error)
}

// ValidatePromotionVerdict checks a reviewer's answer: a known verdict, a
// one-line wording of at most 200 characters when promoting, a scope of the
// form global | project:NAME | domain:NAME (a reject may leave wording and
// scope empty, as the reviewer's prompt says), confidence in [0, 1].
func ValidatePromotionVerdict(v PromotionVerdict) error {
	switch v.Verdict {
	case PromoteVerdictPromote, PromoteVerdictKeepWarm, PromoteVerdictReject:
	default:
		return Errorf(EINVALID, "promotion verdict %q is not promote, keep_warm or reject", v.Verdict)
	}
	w := strings.TrimSpace(v.Wording)
	if v.Verdict != PromoteVerdictReject && (w == "" || strings.ContainsAny(w, "\n\r") || len([]rune(w)) > 200) {
		return Errorf(EINVALID, "promotion wording must be one line of 1–200 characters")
	}
	if !ValidScope(v.Scope) && !(v.Verdict == PromoteVerdictReject && strings.TrimSpace(v.Scope) == "") {
		return Errorf(EINVALID, "promotion scope %q is not global, project:NAME or domain:NAME", v.Scope)
	}
	if v.Confidence < 0 || v.Confidence > 1 {
		return Errorf(EINVALID, "promotion confidence %v is outside 0..1", v.Confidence)
	}
	return nil
}

// ValidScope reports whether s is global, project:NAME or domain:NAME.
func ValidScope(s string) bool {
	if s == ScopeGlobal {
		return true
	}
	for _, p := range []string{"project:", "domain:"} {
		if name, ok := strings.CutPrefix(s, p); ok {
			return validScopeName(name)
		}
	}
	return false
}

// PromotionEvidence is the verdict JSON of a promote proposal: the lesson
// with every occurrence, and the review when a reviewer saw it.
type PromotionEvidence struct {
	LessonKey   string       `json:"lesson_key"`
	Lesson      string       `json:"lesson"`
	Context     string       `json:"context,omitempty"`
	Correction  string       `json:"correction,omitempty"`
	Scope       string       `json:"scope"`
	Count       int          `json:"count"`
	Occurrences []Occurrence `json:"occurrences"`
	Wording     string       `json:"wording"` // proposed HOT rule text
	// CuratorWording is the curator's edit of Wording, recorded when the
	// proposal was approved (ApprovePromotion); applying it uses this text.
	CuratorWording string            `json:"curator_wording,omitempty"`
	Review         *PromotionVerdict `json:"review,omitempty"`
}

// ParsePromotion reads the evidence of a promote proposal.
func ParsePromotion(p *Proposal) (PromotionEvidence, error) {
	var ev PromotionEvidence
	if p.Kind != ProposalPromote {
		return ev, Errorf(EINVALID, "proposal %d is a %s proposal, not promote", p.ID, p.Kind)
	}
	if err := json.Unmarshal(p.Verdict, &ev); err != nil || ev.LessonKey == "" {
		return ev, Errorf(EINVALID, "proposal %d carries no lesson; re-run `memtrace heartbeat`", p.ID)
	}
	return ev, nil
}

// LessonMemoryKey is the key of the HOT memory a promoted lesson becomes.
func LessonMemoryKey(lessonKey string) string { return "lesson:" + lessonKey }

// promotionProposal builds the promote proposal of a candidate lesson,
// asking the reviewer first when there is one.
func (e *Engine) PromotionProposal(ctx context.Context, c *Correction, rev PromotionReviewer) (*Proposal, error) {
	scope := c.Scope
	if !ValidScope(scope) {
		scope = ScopeGlobal
	}
	ev := PromotionEvidence{
		LessonKey: c.LessonKey, Lesson: c.Lesson, Context: c.Context, Correction: c.Correction,
		Scope: scope, Count: c.Count, Occurrences: c.Occurrences, Wording: lessonWording(c),
	}
	p := &Proposal{
		Kind: ProposalPromote, TargetType: string(TierHot), Proposer: ProposerHeartbeat, Status: ProposalPending,
		Reason: fmt.Sprintf("lesson %q seen %d times (threshold %d)", c.LessonKey, c.Count, PromotionThreshold),
	}
	if m, ok := e.MemoryByKey(LessonMemoryKey(c.LessonKey)); ok {
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
			v = PromotionVerdict{NeedsReview: true, Reason: fmt.Sprintf("%s could not review: %s", rev.Name(), ErrorMessage(err))}
		}
		if !v.NeedsReview {
			if verr := ValidatePromotionVerdict(v); verr != nil {
				v.NeedsReview = true
				v.Reason = strings.TrimSpace(v.Reason + " [invalid: " + ErrorMessage(verr) + "]")
			}
		}
		ev.Review = &v
		p.Model, p.PromptHash, p.Confidence = v.Model, v.PromptHash, v.Confidence
		if v.NeedsReview {
			p.Status = ProposalReview
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
			if v.Verdict == PromoteVerdictKeepWarm {
				p.TargetType = string(TierWarm)
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
func lessonWording(c *Correction) string {
	for _, s := range []string{c.Lesson, c.Correction, c.Context, c.LessonKey} {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			return s
		}
	}
	return c.LessonKey
}

// RuleWording is the text a promote proposal's HOT rule gets when applied:
// the curator's edit when there is one, else the proposed wording.
func (ev PromotionEvidence) RuleWording() string {
	if ev.CuratorWording != "" {
		return ev.CuratorWording
	}
	return ev.Wording
}
