package engine

import (
	"context"
	"time"
)

// Embedder turns texts into vectors. Implementations must be deterministic
// for the same input; Name identifies the model so that vectors built by one
// embedder are never compared with vectors from another.
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Detail levels of the capture judge: high is lenient, low is strict.
const (
	DetailHigh   = "high"
	DetailMedium = "medium"
	DetailLow    = "low"
)

// CaptureInput is what the L3 judge sees of a message that passed L1 and L2.
type CaptureInput struct {
	Text    string `json:"text"`
	Role    string `json:"role"`
	Session string `json:"session,omitempty"`
	Project string `json:"project,omitempty"`
	Detail  string `json:"detail"`
	// Candidates are stored memories the message may update (knowledge
	// updates, supersede_judge.go): shown to a judge when the message
	// carries a change marker. A judge names the ones it updates in
	// CaptureVerdict.Updates by Label. The rule judge ignores them.
	Candidates []SupersedeCandidate `json:"candidates,omitempty"`
}

// SupersedeCandidate is one stored memory shown to the capture judge as
// one the message may update. Its text is untrusted: the judge delimits it.
type SupersedeCandidate struct {
	Label string    `json:"label"` // "C1", "C2" …: what the judge answers
	ID    int64     `json:"id"`
	Text  string    `json:"text"`
	At    time.Time `json:"at"` // when it was recorded
}

// CaptureVerdict is the judge's answer for a capture; its JSON shape is a
// published contract (the schema sent as Ollama's `format`).
type CaptureVerdict struct {
	Store      bool    `json:"store"`
	Kind       Kind    `json:"kind"`
	Type       string  `json:"type"`
	Importance float64 `json:"importance"`
	Reason     string  `json:"reason"`
	// Updates are the labels of the CaptureInput.Candidates the message
	// updates (the newer value of the same fact). Nil: the judge said
	// nothing about updates (the key was absent), and the rule decides;
	// empty: it updates none of them.
	Updates []string `json:"updates,omitempty"`
	// NeedsReview is set (by the judge client, not the model) when the
	// answer did not validate; it is never acted upon.
	NeedsReview bool   `json:"-"`
	Source      string `json:"-"` // "judge:<model>" or "rules"
}

// Judge is the L3 layer of the capture pipeline. With no judge configured
// the engine uses RuleJudge, and the capture result says so.
type Judge interface {
	Name() string
	JudgeCapture(ctx context.Context, in CaptureInput) (CaptureVerdict, error)
}
