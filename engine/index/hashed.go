// The Hashed embedder needs no model files and is deterministic: it hashes
// word terms (a tokeniser it is given: engine.NewHashed gives it
// engine/textnorm's stable tokens) and character n-grams into a fixed
// number of signed buckets and L2-normalises the result. It captures
// lexical and sub-word overlap — "충주호" is near "충주", "painted" near
// "painting" — which is what the vector channel of recall (candidates and
// rerank), the dedupe check, the extraction gates and association use; it
// does not know that "doctor" is near "dentist". Any engine.Embedder
// replaces it (engine.Options.Embedder); a memory's vector records which
// embedder made it, and one made by another embedder is embedded again at
// open.

package index

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultDim is the dimension of the default hashed embedder.
const DefaultDim = 256

// Hashed is the default embedder.
type Hashed struct {
	dim    int
	tokens func(text string) []string
}

// NewHashed returns a hashed embedder of dim dimensions (DefaultDim if ≤ 0)
// over the word terms tokens gives of a text.
func NewHashed(dim int, tokens func(text string) []string) *Hashed {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hashed{dim: dim, tokens: tokens}
}

// Name identifies the embedder and its parameters; vectors of different
// names are never compared.
func (h *Hashed) Name() string { return fmt.Sprintf("hashed-ngram-v2/%d", h.dim) }

// MeasuresWords reports that the vectors measure shared words and
// character n-grams, not meaning (engine.LexicalEmbedder): the recall's
// rerank weighs BM25 above their cosine.
func (h *Hashed) MeasuresWords() bool { return true }

// Dim is the vector length.
func (h *Hashed) Dim() int { return h.dim }

// Embed returns one unit vector per text (the zero vector for a text with no
// features).
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.EmbedOne(t)
	}
	return out, nil
}

// Feature weights: whole terms dominate, n-grams give sub-word overlap.
const (
	termWeight  = 1.0
	ngramWeight = 0.35
)

// EmbedOne embeds a single text. The features are hashed in place (FNV-1a
// of "w:"+term and "g:"+n-gram, as hash/fnv computes it) without building
// their strings: the same vector, without an allocation per feature.
func (h *Hashed) EmbedOne(text string) []float32 {
	v := make([]float32, h.dim)
	for _, t := range h.tokens(text) {
		h.addHash(v, fnvString(fnvString(fnvOffset, "w:"), t), termWeight)
		h.ngramHashes(v, t)
	}
	Normalize(v)
	return v
}

// ngramHashes adds the n-gram features of term t (those ngrams lists).
func (h *Hashed) ngramHashes(v []float32, t string) {
	if t == "" {
		return
	}
	g := fnvString(fnvOffset, "g:")
	r, _ := utf8.DecodeRuneInString(t)
	if unicode.Is(unicode.Hangul, r) {
		if !utf8.ValidString(t) {
			// string(rs[i:i+2]) re-encodes invalid bytes: the slow way.
			for _, x := range ngrams(t) {
				h.addHash(v, fnvString(g, x), ngramWeight)
			}
			return
		}
		// Syllable bigrams: t's bytes from one rune to the end of the next.
		prev := -1
		for i, r := range t {
			if prev >= 0 {
				h.addHash(v, fnvString(g, t[prev:i+utf8.RuneLen(r)]), ngramWeight)
			}
			prev = i
		}
		return
	}
	// Latin trigrams of "^" + t + "$", byte by byte.
	if len(t)+2 < 4 {
		return
	}
	at := func(i int) byte {
		switch {
		case i == 0:
			return '^'
		case i == len(t)+1:
			return '$'
		}
		return t[i-1]
	}
	for i := 0; i+3 <= len(t)+2; i++ {
		x := g
		for k := i; k < i+3; k++ {
			x = (x ^ uint64(at(k))) * fnvPrime
		}
		h.addHash(v, x, ngramWeight)
	}
}

// FNV-1a, 64 bits (hash/fnv's New64a).
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvString(x uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		x = (x ^ uint64(s[i])) * fnvPrime
	}
	return x
}

func (h *Hashed) addHash(v []float32, x uint64, w float64) {
	i := int(x % uint64(h.dim))
	if x>>63 == 1 {
		w = -w
	}
	v[i] += float32(w)
}

// ngrams of a term: Hangul syllable bigrams (a Korean syllable is already a
// dense unit), Latin trigrams with boundary marks.
func ngrams(t string) []string {
	if t == "" {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(t)
	if unicode.Is(unicode.Hangul, r) {
		rs := []rune(t)
		if len(rs) < 2 {
			return nil
		}
		out := make([]string, 0, len(rs)-1)
		for i := 0; i+1 < len(rs); i++ {
			out = append(out, string(rs[i:i+2]))
		}
		return out
	}
	s := "^" + t + "$"
	if len(s) < 4 {
		return nil
	}
	var b strings.Builder
	out := make([]string, 0, len(s)-2)
	for i := 0; i+3 <= len(s); i++ {
		b.Reset()
		b.WriteString(s[i : i+3])
		out = append(out, b.String())
	}
	return out
}

// Normalize scales v to unit length in place (a zero vector stays zero).
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Cosine is the cosine similarity of two vectors (a score: 1 identical,
// 0 unrelated). Vectors of different length, or a zero vector, score 0.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
