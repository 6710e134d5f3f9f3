package golden

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sync"

	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// DenseEmbedder is a deterministic stand-in for an embedding model, for
// benchmarks (`bench recall --dense DIM`): every word of a text (textnorm's
// stable terms, so "부산에서" is the word "부산", as for the hashed
// embedder) has a
// seeded Gaussian direction, and a text's vector is the sum of its words'
// directions, a direction of the whole text (so no two texts coincide)
// and one direction shared by every text (real models put all texts in
// one cone, far from zero mean), normalised. Every coordinate is nonzero,
// as a model's are; texts that share words are near each other, so the
// synthetic memories, built from a few templates and names, fall into
// overlapping clusters. It knows no meaning.
type DenseEmbedder struct {
	dim    int
	seed   uint64
	mu     sync.Mutex
	words  map[string][]float32 // cached word directions
	shared []float32
}

// denseWordCache bounds the cached word directions.
const denseWordCache = 1 << 16

// Weights of a text's parts, against each word's 1.
const (
	denseTextWeight   = 0.5
	denseSharedWeight = 0.3
)

// NewDenseEmbedder returns the embedder of dim dimensions; seed picks the
// directions.
func NewDenseEmbedder(dim int, seed uint64) *DenseEmbedder {
	d := &DenseEmbedder{dim: dim, seed: seed, words: map[string][]float32{}}
	d.shared = d.direction("\x00shared")
	return d
}

// Name identifies the embedder and its parameters.
func (d *DenseEmbedder) Name() string {
	return fmt.Sprintf("synthetic-dense-v1/%d/seed%d", d.dim, d.seed)
}

// Dim is the vector length.
func (d *DenseEmbedder) Dim() int { return d.dim }

// Embed returns one unit vector per text.
func (d *DenseEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = d.embed(t)
	}
	return out, nil
}

func (d *DenseEmbedder) embed(text string) []float32 {
	v := make([]float32, d.dim)
	words := textnorm.StableTokens(text)
	for _, w := range words {
		add(v, d.word(w), 1)
	}
	scale := math.Sqrt(float64(max(1, len(words))))
	add(v, d.direction("\x00text:"+text), float32(denseTextWeight*scale))
	add(v, d.shared, float32(denseSharedWeight*scale))
	index.Normalize(v)
	return v
}

func add(v, u []float32, w float32) {
	for i, x := range u {
		v[i] += w * x
	}
}

// word is w's direction, cached.
func (d *DenseEmbedder) word(w string) []float32 {
	d.mu.Lock()
	u, ok := d.words[w]
	d.mu.Unlock()
	if ok {
		return u
	}
	u = d.direction("\x00word:" + w)
	d.mu.Lock()
	if len(d.words) >= denseWordCache {
		clear(d.words)
	}
	d.words[w] = u
	d.mu.Unlock()
	return u
}

// direction is the seeded unit Gaussian direction of key.
func (d *DenseEmbedder) direction(key string) []float32 {
	h := fnv.New64a()
	h.Write([]byte(key))
	r := rand.New(rand.NewPCG(d.seed, h.Sum64()))
	u := make([]float32, d.dim)
	for i := range u {
		u[i] = float32(r.NormFloat64())
	}
	index.Normalize(u)
	return u
}
