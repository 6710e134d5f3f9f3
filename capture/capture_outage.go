package capture

import (
	"context"
	"strings"

	"memtrace/engine"
)

// ReasonEmbedderUnavailable starts the review reason of a statement held
// because the embedder was away when it was captured: nothing is lost, and
// `memtrace review retry` offers it again once the server is back.
const ReasonEmbedderUnavailable = "embedder_unavailable"

// embedderAway reports whether err is the embedder being unreachable (an
// Ollama server stopped or restarting) rather than the capture being
// cancelled.
func embedderAway(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && engine.ErrorCode(err) == engine.EUNAVAIL
}

// holdUnembedded holds a statement the judge would store but that cannot
// be embedded now: it waits in the review queue with the reason.
func holdUnembedded(p *pending, why, decider string) {
	r := p.res
	r.Outcome, r.Reason = engine.OutcomeHeld, engine.ProposalReview
	reason := ReasonEmbedderUnavailable + ": " + why
	p.held = &engine.ReviewItem{Reason: reason, Judge: decider}
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "hold",
		Reason: reason + " — held in the review queue; `memtrace review retry --all` stores it once the embedder is back"})
}

// retryUnembedded offers again the statements held because the embedder
// was away, once a capture finds it back. It is best effort: what it cannot
// offer stays held for `memtrace review retry`.
func retryUnembedded(ctx context.Context, c *Capturer) {
	items, _, err := c.e.Store().FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
	if err != nil {
		return
	}
	var away []*engine.ReviewItem
	for _, it := range items {
		if strings.HasPrefix(it.Reason, ReasonEmbedderUnavailable) {
			away = append(away, it)
		}
	}
	if len(away) > 0 {
		_, _, _ = c.Reoffer(ctx, away)
	}
}
