package engine

import "context"

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
}

// CaptureVerdict is the judge's answer for a capture; its JSON shape is a
// published contract (the schema sent as Ollama's `format`).
type CaptureVerdict struct {
	Store      bool    `json:"store"`
	Kind       Kind    `json:"kind"`
	Type       string  `json:"type"`
	Importance float64 `json:"importance"`
	Reason     string  `json:"reason"`
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
