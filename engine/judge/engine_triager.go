package judge

import (
	"context"

	"memtrace/engine"
)

// EngineTriager adapts a Triager to engine.Triager, the interface the
// engine's triage workflow (engine.RunTriage) calls: the engine imports no
// judge, so the adapter lives on this side.
type EngineTriager struct{ T *Triager }

// Model is the model the triager asks.
func (a EngineTriager) Model() string { return a.T.Model() }

// Triage judges one item and converts the verdict field by field.
func (a EngineTriager) Triage(ctx context.Context, item engine.TriageItem) (engine.TriageVerdict, error) {
	v, err := a.T.Triage(ctx, TriageItem{ID: item.ID, Key: item.Key, Type: item.Type, Text: item.Text})
	if err != nil {
		return engine.TriageVerdict{}, err
	}
	return engine.TriageVerdict{
		MemoryID:      v.MemoryID,
		Key:           v.Key,
		Type:          v.Type,
		Verdict:       v.Verdict,
		RetypeTo:      v.RetypeTo,
		Reason:        v.Reason,
		Confidence:    v.Confidence,
		JudgeVerdict:  v.JudgeVerdict,
		Flags:         append([]string(nil), v.Flags...),
		NeedsReview:   v.NeedsReview,
		Model:         v.Model,
		Digest:        v.Digest,
		PromptVersion: v.PromptVersion,
		PromptHash:    v.PromptHash,
		SchemaHash:    v.SchemaHash,
		InputHash:     v.InputHash,
		Attempts:      v.Attempts,
		Cached:        v.Cached,
	}, nil
}
