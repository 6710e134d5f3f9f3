package engine

import (
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// HashedDim is the dimension of the default hashed embedder.
const HashedDim = index.DefaultDim

// NewHashed is the default offline embedder (index.Hashed) of dim
// dimensions (HashedDim if ≤ 0), over textnorm's stable word terms: what an
// engine embeds with when Options.Embedder is nil.
func NewHashed(dim int) *index.Hashed { return index.NewHashed(dim, textnorm.StableTokens) }
