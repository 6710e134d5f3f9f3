package half

import "context"

// Dense embedders' vectors are kept at float16 precision: rounded once,
// as they come out of the embedder, so that the store keeps them in half
// the bytes (store: a 768-d vector in 1,537 bytes instead of 3,072, and its
// vector file in 1.5 KB a row) and loses nothing doing so — a memory read
// back is bit for bit the vector the warm engine has. Rounding moves a
// unit vector's cosine by at most about 3e-5 (mean 6e-6): measured on 50k
// clustered 768-d vectors (TestHalfFaithful), the exact top 50 of the
// rounded rows hold 0.9996–1 of the float32 top 50, against 0.990 for
// int8 with a scale a row, whose cosines move by up to 1.3e-3.
//
// The hashed embedder is not wrapped (the engine does not ask): its sparse vectors, and every
// figure measured with them, stay exactly as they were.

// Embedder is engine.Embedder (engine imports this package).
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// halfEmbedder rounds every vector of its embedder to float16.
type halfEmbedder struct{ Embedder }

func (h halfEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := h.Embedder.Embed(ctx, texts)
	for _, v := range vs {
		Round(v)
	}
	return vs, err
}

// halfBatchEmbedder is halfEmbedder of an embedder on a server, which
// says how many texts it embeds a call (engine.BatchEmbedder).
type halfBatchEmbedder struct {
	halfEmbedder
	batch interface{ EmbedBatch() int }
}

func (h halfBatchEmbedder) EmbedBatch() int { return h.batch.EmbedBatch() }

// Vectors returns emb with its vectors rounded to float16 (kept with
// that precision), or emb itself when it is nil or rounds already. The
// engine leaves the hashed embedder out (engine.Open).
func Vectors(emb Embedder) Embedder {
	switch emb.(type) {
	case nil, halfEmbedder, halfBatchEmbedder:
		return emb
	}
	h := halfEmbedder{emb}
	if b, ok := emb.(interface{ EmbedBatch() int }); ok {
		return halfBatchEmbedder{h, b}
	}
	return h
}
