package capture

import (
	"context"
	"sync"

	"memtrace/engine"
)

// What an engine keeps for its capture across calls, and the rules-only
// Capturer the store audit decides with.

// NewRuleCapturer is NewCapturer deciding by the rules alone, whatever
// judge the engine has: the store audit's "would it be stored today".
func NewRuleCapturer(ctx context.Context, e *engine.Engine) (*Capturer, error) {
	c, err := NewCapturer(ctx, e)
	if err != nil {
		return nil, err
	}
	c.judge, c.decider = RuleJudge{tables: defaultTypeTables()}, "rules"
	return c, nil
}

// Decide runs the capture's decision on m without storing anything: it
// reports whether m would be stored and, when not, the result's DroppedBy
// and Reason say which layer dropped it and why.
func (c *Capturer) Decide(ctx context.Context, m engine.Message) (res *engine.CaptureResult, store bool, err error) {
	p := &pending{msg: m, res: &engine.CaptureResult{Trail: []engine.Decision{}}}
	if err := c.decide(ctx, p); err != nil {
		return nil, false, err
	}
	return p.res, p.store, nil
}

// captureState is what an engine keeps for its capture across calls.
type captureState struct {
	// capturer serves Capture and CaptureBatch: created on first use, so
	// the filter tables, the gates' embedded exemplars and the dedupe index
	// are prepared once, not per call. capMu serialises its use (a Capturer
	// is not safe for concurrent use).
	capMu    sync.Mutex
	capturer *Capturer

	// dx is the capture's dedupe and subject index over the cache's
	// active memories (capture_index.go), kept across Capturers so that
	// an ingest run does not rebuild it over the whole store. dxMu is
	// held by the Capturer run that uses it.
	dxMu sync.Mutex
	dx   *dedupeIndex
}

type captureKey struct{}

// captureOf is e's capture state.
func captureOf(e *engine.Engine) *captureState {
	return e.Extension(captureKey{}, func() any { return new(captureState) }).(*captureState)
}
