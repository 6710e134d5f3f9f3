package engine

// View reads the cache under one read lock, for a pipeline that asks it
// many questions in a row (a recall's hundred candidates): Engine.View
// takes the lock, Close gives it back. Nothing read through it may be
// kept past Close or changed.
type View struct{ e *Engine }

// View takes the cache's read lock until the view is closed. The caller
// must not call back into the engine's write paths while it holds one.
func (e *Engine) View() View {
	e.mu.RLock()
	return View{e}
}

// Close releases the view's read lock.
func (v View) Close() { v.e.mu.RUnlock() }

// Memory is the cached memory with this id (any status), or nil: shared,
// read-only.
func (v View) Memory(id int64) *Memory { return v.e.mems[id] }

// Vector is the memory's row of the vector index: shared, read-only.
func (v View) Vector(id int64) ([]float32, bool) { return v.e.vec.Get(id) }

// ExactVectors is the n best of a pass over every row of the vector index
// (what benchmarks measure VectorSearch against) and the index's bytes.
func (v View) ExactVectors(q []float32, n int) ([]Hit, int) {
	return v.e.vec.SearchExact(q, n), v.e.vec.Bytes()
}

// DocFreq is t's document frequency from df (a recall's frequencies, see
// Engine.LexicalSearchDF), or from the lexical index when df lacks it.
func (v View) DocFreq(df map[string]int, t string) int { return v.e.docFreq(df, t) }

// OwnDocFreq is how many memories hold t in their own text (DocFreq
// without the neighbours' words, and without its cost).
func (v View) OwnDocFreq(t string) int { return v.e.lex.OwnDocFreq(t) }

// IDF is the lexical index's idf of a term in f documents.
func (v View) IDF(f int) float64 { return v.e.lex.IDFOf(f) }

// TermNo is the lexical index's number of term t, if any memory holds it.
func (v View) TermNo(t string) (int32, bool) { return v.e.lex.Lookup(t) }

// OwnTerms is the term numbers of a memory's own text.
func (v View) OwnTerms(id int64) []int32 { return v.e.ownTerms(id) }

// Window fills w (2×ContextWindow slots: the neighbour before and after at
// each distance) with the memory's session neighbours, 0 where there is
// none, and reports whether it has a session.
func (v View) Window(id int64, w []int64) bool {
	return v.e.sessions != nil && v.e.sessions.windowInto(id, w)
}

// Lends reports whether a session neighbour lends its words as context:
// it is placed in a session and not quarantined.
func (v View) Lends(id int64) bool {
	if v.e.sessions == nil {
		return false
	}
	pos, ok := v.e.sessions.position[id]
	return ok && pos.status != StatusQuarantined
}

// Neighbours is the ids within ContextWindow of the memory in its session,
// nil when it has none.
func (v View) Neighbours(id int64) []int64 {
	if v.e.sessions == nil {
		return nil
	}
	pos, ok := v.e.sessions.position[id]
	if !ok {
		return nil
	}
	return v.e.sessions.neighbours(id, pos.session)
}

// Seq is the highest store seq the cache has applied (Engine.Seq).
func (v View) Seq() int64 { return v.e.seq }

// IDs is every cached memory's id in order: shared, read-only.
func (v View) IDs() []int64 { return v.e.ids }

// ChangedSince lists the memories the cache took above seq; !ok: it may lack some.
func (v View) ChangedSince(seq int64) ([]int64, bool) { return v.e.log.Since(seq) }

// HeldTerms calls fn for every term of the lexical index for which want is
// true and that a memory not quarantined holds in its own words: the
// store's vocabulary, without reading a text (a term a removed memory left
// behind is not held).
func (v View) HeldTerms(want func(t string) bool, fn func(t string)) {
	held := func(id int64) bool {
		m := v.e.mems[id]
		return m != nil && m.Status != StatusQuarantined
	}
	v.e.lex.EachTerm(func(t string, no int32) {
		if want(t) && v.e.lex.Holds(no, held) {
			fn(t)
		}
	})
}
