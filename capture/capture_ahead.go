package capture

import (
	"context"

	"memtrace/engine"
)

// A capture batch on an embedder that answers over the network
// (engine.BatchEmbedder: an Ollama server) embeds the texts of the
// messages that pass L1 and L2 before it decides them, in requests of up to
// EmbedBatch texts, instead of one request per message; the decisions then
// take their vectors from what was embedded ahead. The statements of a
// split message and a gate's keyword sentence are only known while a
// message is decided: they are embedded then, as before. A local embedder
// (the hashed one) is called per message, as before: it costs no round
// trip, and embedding ahead would embed what the judge then drops.

// aheadEmbedder answers from the vectors embedded ahead and asks its
// embedder for the rest. When the call ahead found the embedder away, it
// answers that error at once: every message of the batch is held
// (holdUnembedded) without one more request each.
type aheadEmbedder struct {
	engine.Embedder
	vecs map[string][]float32
	away error
}

// Embed returns one vector per text, in order.
func (a *aheadEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if a.away != nil {
		return nil, a.away
	}
	out := make([][]float32, len(texts))
	var miss []string
	var at []int
	for i, t := range texts {
		if v, ok := a.vecs[t]; ok {
			out[i] = v
			continue
		}
		miss = append(miss, t)
		at = append(at, i)
	}
	if len(miss) == 0 {
		return out, nil
	}
	vs, err := a.Embedder.Embed(ctx, miss)
	if err != nil {
		return nil, err
	}
	for k, i := range at {
		out[i] = vs[k]
	}
	return out, nil
}

// embedder is what a decision embeds with: the run's vectors embedded
// ahead when there are some, else the engine's embedder.
func (c *Capturer) embedder() engine.Embedder {
	if c.ahead != nil {
		return c.ahead
	}
	return c.e.Embedder()
}

// embedAhead screens todo (L1, L2, the judge: screen) and embeds the text
// of every message the judge would store, when the engine's embedder is a
// BatchEmbedder and the batch has more than one such message. An error
// other than the embedder being away leaves nothing ahead: each decision
// asks again and reports it.
func (c *Capturer) embedAhead(ctx context.Context, todo []*pending) error {
	be, ok := c.e.Embedder().(engine.BatchEmbedder)
	if !ok || c.gates.unavailable != "" {
		return nil
	}
	if c.parallelDecide(len(todo)) {
		// The rule judge reads nothing that changes: screen on every CPU.
		err := parallelChunks(len(todo), decideChunk, func() func(lo, hi int) error {
			return func(lo, hi int) error {
				for _, p := range todo[lo:hi] {
					if _, err := c.screen(ctx, p); err != nil {
						return err
					}
				}
				return nil
			}
		})
		if err != nil {
			return err
		}
	}
	var texts []string
	seen := map[string]bool{}
	for _, p := range todo {
		ok, err := c.screen(ctx, p)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if t := p.in.Text; !seen[t] {
			seen[t] = true
			texts = append(texts, t)
		}
	}
	if len(texts) < 2 {
		return nil
	}
	a := &aheadEmbedder{Embedder: be, vecs: make(map[string][]float32, len(texts))}
	vs, err := embedInBatches(ctx, be, texts)
	switch {
	case err != nil && embedderAway(ctx, err):
		a.away = err
	case err != nil:
		return nil
	default:
		for i, t := range texts {
			a.vecs[t] = vs[i]
		}
	}
	c.ahead = a
	return nil
}

// embedInBatches embeds texts in calls of at most be.EmbedBatch() texts.
func embedInBatches(ctx context.Context, be engine.BatchEmbedder, texts []string) ([][]float32, error) {
	n := max(be.EmbedBatch(), 1)
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += n {
		vs, err := be.Embed(ctx, texts[lo:min(lo+n, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}
