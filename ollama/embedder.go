package ollama

import (
	"context"
	"sync"

	"github.com/ollama/ollama/api"

	"memtrace/engine"
)

// embedBatch is how many texts go in one /api/embed request.
const embedBatch = 64

// Embedder is an engine.Embedder on Ollama's /api/embed.
type Embedder struct {
	client *Client
	model  string

	mu  sync.Mutex
	dim int
}

var _ engine.BatchEmbedder = (*Embedder)(nil)

// NewEmbedder returns an embedder for model (e.g. "nomic-embed-text"). It
// does no I/O; Dim is known after the first Embed or Ready.
func NewEmbedder(client *Client, model string) *Embedder {
	return &Embedder{client: client, model: model}
}

// NewEmbedderDim is NewEmbedder for a model whose vectors are known to
// have dim values (a database's recorded dimension): it can stand in for
// the model while the server is away — every Embed asks the server again,
// so it works as soon as the server is back.
func NewEmbedderDim(client *Client, model string, dim int) *Embedder {
	return &Embedder{client: client, model: model, dim: dim}
}

// Name is "ollama:<model>"; vectors of different embedders are never
// compared.
func (e *Embedder) Name() string { return "ollama:" + e.model }

// Dim is the vector length learnt from the first response; 0 before.
func (e *Embedder) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// EmbedBatch is how many texts one /api/embed request carries: a capture
// batch embeds its messages ahead in requests of this size.
func (e *Embedder) EmbedBatch() int { return embedBatch }

// Ready embeds a probe text if the dimension is not known yet, so Dim is
// valid before an index is built.
func (e *Embedder) Ready(ctx context.Context) error {
	if e.Dim() > 0 {
		return nil
	}
	_, err := e.Embed(ctx, []string{"dimension probe"})
	return err
}

// Embed returns one vector per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += embedBatch {
		batch := texts[min(start, len(texts)):min(start+embedBatch, len(texts))]
		resp, err := e.client.api.Embed(ctx, &api.EmbedRequest{Model: e.model, Input: batch})
		if err != nil {
			return nil, e.client.explain(ctx, err, e.model, "embedding")
		}
		if len(resp.Embeddings) != len(batch) {
			return nil, engine.Errorf(engine.EUNAVAIL,
				"Ollama at %s returned %d embeddings for %d texts with model %s: is %s an embedding model? Try `ollama pull nomic-embed-text`",
				e.client.Host(), len(resp.Embeddings), len(batch), e.model, e.model)
		}
		for _, v := range resp.Embeddings {
			if err := e.learnDim(len(v)); err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

func (e *Embedder) learnDim(n int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dim == 0 && n > 0 {
		e.dim = n
	}
	if n != e.dim {
		return engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s returned a %d-dimensional vector from model %s, expected %d: the model changed under the same name; check `ollama show %s`, then rebuild the vectors",
			e.client.Host(), n, e.model, e.dim, e.model)
	}
	return nil
}
