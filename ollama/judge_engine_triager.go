package ollama

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

// Triage judges one item (the judge's verdict is the engine's type).
func (a EngineTriager) Triage(ctx context.Context, item engine.TriageItem) (engine.TriageVerdict, error) {
	return a.T.Triage(ctx, item)
}
