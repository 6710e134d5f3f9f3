package engine

import (
	"context"
	"encoding/json"
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

// RuleWording is the text a promote proposal's HOT rule gets when applied:
// the curator's edit when there is one, else the proposed wording.
func (ev PromotionEvidence) RuleWording() string {
	if ev.CuratorWording != "" {
		return ev.CuratorWording
	}
	return ev.Wording
}
