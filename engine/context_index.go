package engine

import (
	"sort"
	"time"

	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// Conversational context in the lexical index.
//
// A memory is rarely understood on its own: "Yes, I adopted her last
// month" answers "Did Caroline adopt a dog?" only together with the turn
// before it. So each memory of a session counts the terms of its
// neighbours — the ContextWindow memories either side in the same session,
// in time order — at a lower weight: a neighbour at distance d counts
// ContextWeight × ContextDecay^(d−1) per occurrence (BM25F-style fractional
// term frequency; the document's length grows by the same amount). A
// memory's own words always weigh 1, so a memory that says the thing
// outranks one that only sits next to it. Quarantined neighbours lend no
// words. Memories without a session stand alone.
//
// The lexical index holds each memory's own words and its window of
// neighbours (index.NewContextBM25); a search spreads a term over the windows
// as it scores it. Writing the context out into every memory's postings —
// the first design — held four times the postings and made the rebuild at
// open sum every memory with its neighbours: half of a 100k-memory open.
//
// Measured on LoCoMo (the retrieval lab, golden/turnmodel_lab_test.go,
// turn-level recall, 1,981 questions): Porter2 stemming alone gives R@10
// 0.633; adding ±2 neighbours at 0.5 and 0.3 gives 0.760 (R@5 0.671, R@25
// 0.838, R@50 0.881) against DRAGON's 0.662.
const (
	ContextWindow = 2
	ContextWeight = 0.5
	ContextDecay  = 0.6
)

// sessionIndex keeps each session's memories in conversation order and
// every memory's own terms, so that a memory can be re-posted and its
// neighbours' windows set when one of them changes. Terms are kept as the
// lexical index's term numbers (index.BM25.TermNo): a quarter of the
// memory of strings. Guarded by Engine.mu.
type sessionIndex struct {
	toks     map[int64][]int32
	order    map[string][]int64 // session → ids by (CreatedAt, ID)
	position map[int64]sessionPos
}

type sessionPos struct {
	session string
	at      time.Time
	status  Status
}

// newSessionIndex returns an empty index with room for n memories.
func newSessionIndex(n int) *sessionIndex {
	return &sessionIndex{toks: make(map[int64][]int32, n), order: map[string][]int64{}, position: make(map[int64]sessionPos, n)}
}

// newLexical returns an empty lexical index with the engine's context
// window: for each distance d ≤ ContextWindow, the neighbour before and the
// one after at ContextWeight × ContextDecay^(d−1).
func newLexical() *index.BM25 {
	return index.NewContextBM25(index.K1, index.B, ContextSlotWeights())
}

// window is the lexical window of id in its session: the neighbours at
// distance 1 (before, after), then 2, …, index.None where there is none.
func (s *sessionIndex) window(id int64) []int64 {
	w := make([]int64, 2*ContextWindow)
	s.windowInto(id, w)
	return w
}

// windowInto fills w (len 2·ContextWindow) with window(id) without
// allocating; it reports whether id has any neighbour slot at all.
func (s *sessionIndex) windowInto(id int64, w []int64) bool {
	for k := range w {
		w[k] = index.None
	}
	pos, ok := s.position[id]
	if !ok || pos.session == "" {
		return false
	}
	ids, at := s.place(id, pos.session)
	if at < 0 {
		return false
	}
	for d := 1; d <= ContextWindow; d++ {
		if j := at - d; j >= 0 {
			w[2*(d-1)] = ids[j]
		}
		if j := at + d; j < len(ids) {
			w[2*(d-1)+1] = ids[j]
		}
	}
	return true
}

// termNos appends to dst the term numbers of text's tokens (textnorm.Tokens),
// assigning numbers to new terms. Caller holds e.mu (it writes e.lex).
func (e *Engine) termNos(dst []int32, text string) []int32 {
	textnorm.Words(text, func(w string, hangul bool) {
		if t, ok := textnorm.Term(w, hangul); ok {
			dst = append(dst, e.lex.TermNo(t))
		}
	})
	return dst
}

// lexTerms is the lexical terms of text, in order: what termNos numbers.
// It needs no lock.
func LexTerms(text string) []string {
	var out []string
	textnorm.Words(text, func(w string, hangul bool) {
		if t, ok := textnorm.Term(w, hangul); ok {
			out = append(out, t)
		}
	})
	return out
}

// ownTerms is the term numbers of a memory's own text. Caller holds e.mu
// (read).
func (e *Engine) ownTerms(id int64) []int32 {
	if e.sessions != nil {
		if toks, ok := e.sessions.toks[id]; ok {
			return toks
		}
	}
	m, ok := e.mems[id]
	if !ok {
		return nil
	}
	var out []int32
	for _, t := range textnorm.Tokens(m.Content) {
		if no, ok := e.lex.Lookup(t); ok {
			out = append(out, no)
		}
	}
	return out
}

// markLexical updates m's terms and session place and adds to dirty the
// documents whose words, window, lending or length may have changed: m and
// the neighbours whose context it joined or left. dirty[id] is true when
// id's own words must be posted again. A batch marks every memory first and
// flushes once, so a document that several of the batch's memories touch
// is indexed once, from the final state — the same document an index per
// memory would have ended with. terms, when not nil, are lexTerms of
// m.Content. Caller holds e.mu; e.mems already holds m.
func (e *Engine) markLexical(m *Memory, old *Memory, existed bool, dirty map[int64]bool, terms []string) {
	if e.sessions == nil {
		e.sessions = newSessionIndex(0)
	}
	s := e.sessions
	pos := sessionPos{session: m.Session, at: m.CreatedAt, status: m.Status}
	prev, had := s.position[m.ID]
	contentChanged := !existed || old.Content != m.Content
	if !contentChanged && had && prev == pos {
		return // access counts, tiers, boosts: nothing the index sees
	}
	switch {
	case contentChanged && terms != nil:
		toks := make([]int32, len(terms))
		for i, t := range terms {
			toks[i] = e.lex.TermNo(t)
		}
		s.toks[m.ID] = toks
	case contentChanged:
		s.toks[m.ID] = e.termNos(nil, m.Content)
	}
	dirty[m.ID] = dirty[m.ID] || contentChanged || !had
	mark := func(id int64) {
		if _, ok := dirty[id]; !ok {
			dirty[id] = false
		}
	}
	if had && (prev.session != pos.session || !prev.at.Equal(pos.at)) {
		for _, id := range s.remove(m.ID, prev) {
			mark(id)
		}
		had = false
	}
	if !had && pos.session != "" {
		s.insert(m.ID, pos, e.mems)
	}
	s.position[m.ID] = pos
	// m's neighbours see its new words or status, and a new window.
	for _, id := range s.neighbours(m.ID, pos.session) {
		mark(id)
	}
}

// flushLexical posts the dirty documents' own words where they changed,
// then sets every dirty document's window and lending, then its length
// (which depends on its neighbours' words and lending, so it comes last).
// Caller holds e.mu.
func (e *Engine) flushLexical(dirty map[int64]bool) {
	if len(dirty) == 0 {
		return
	}
	s := e.sessions
	var tf termCounts
	for id, own := range dirty {
		if own {
			tf.count(s.toks[id])
			e.lex.AddTerms(id, tf.nos, tf.vals)
		}
	}
	for id := range dirty {
		m := e.mems[id]
		e.lex.SetContext(id, s.window(id), m != nil && m.Status != StatusQuarantined)
	}
	for id := range dirty {
		e.lex.Relength(id)
	}
}

// termCounts is one document's distinct terms and how often each occurs,
// in the order the terms first occur.
type termCounts struct {
	at   map[int32]int
	nos  []int32
	vals []float64
}

func (tf *termCounts) count(toks []int32) {
	if tf.at == nil {
		tf.at = make(map[int32]int, 64)
	}
	clear(tf.at)
	tf.nos, tf.vals = tf.nos[:0], tf.vals[:0]
	for _, no := range toks {
		i, ok := tf.at[no]
		if !ok {
			i = len(tf.nos)
			tf.at[no] = i
			tf.nos = append(tf.nos, no)
			tf.vals = append(tf.vals, 0)
		}
		tf.vals[i]++
	}
}

// placeSession records m's terms (toks: term numbers of its content) and
// its place in its session without touching the lexical index's postings:
// the bulk load at open calls it for every memory and then buildLexical
// once. Caller owns e.
func (e *Engine) placeSession(m *Memory, toks []int32) {
	if e.sessions == nil {
		e.sessions = newSessionIndex(0)
	}
	s := e.sessions
	if prev, had := s.position[m.ID]; had {
		s.remove(m.ID, prev)
	}
	s.toks[m.ID] = toks
	pos := sessionPos{session: m.Session, at: m.CreatedAt, status: m.Status}
	if pos.session != "" {
		s.insert(m.ID, pos, e.mems)
	}
	s.position[m.ID] = pos
}

// less orders a session's memories by time, then id.
func lessMem(a, b *Memory) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}

func (s *sessionIndex) insert(id int64, pos sessionPos, mems map[int64]*Memory) {
	ids := s.order[pos.session]
	m := mems[id]
	i := sort.Search(len(ids), func(i int) bool { return lessMem(m, mems[ids[i]]) })
	ids = append(ids, 0)
	copy(ids[i+1:], ids[i:])
	ids[i] = id
	s.order[pos.session] = ids
}

// remove takes id out of its old session and returns the neighbours it had.
func (s *sessionIndex) remove(id int64, prev sessionPos) []int64 {
	if prev.session == "" {
		return nil
	}
	around := s.neighbours(id, prev.session)
	ids := s.order[prev.session]
	for i, x := range ids {
		if x == id {
			ids = append(ids[:i], ids[i+1:]...)
			break
		}
	}
	if len(ids) == 0 {
		delete(s.order, prev.session)
	} else {
		s.order[prev.session] = ids
	}
	return around
}

// place returns session's memories in order and id's position among them
// (-1 if it is not there).
func (s *sessionIndex) place(id int64, session string) ([]int64, int) {
	ids := s.order[session]
	for i := len(ids) - 1; i >= 0; i-- { // appends are the common case: search from the end
		if ids[i] == id {
			return ids, i
		}
	}
	return ids, -1
}

// neighbours are the ids within ContextWindow of id in its session.
func (s *sessionIndex) neighbours(id int64, session string) []int64 {
	if session == "" {
		return nil
	}
	ids, at := s.place(id, session)
	if at < 0 {
		return nil
	}
	var out []int64
	for j := max(0, at-ContextWindow); j <= min(len(ids)-1, at+ContextWindow); j++ {
		if j != at {
			out = append(out, ids[j])
		}
	}
	return out
}

// contextSlotWeights are the weights of the slots of sessionIndex.window:
// ContextWeight × ContextDecay^(d−1) for the neighbour before and the one
// after at each distance d.
func ContextSlotWeights() []float64 {
	w := make([]float64, 0, 2*ContextWindow)
	x := ContextWeight
	for range ContextWindow {
		w = append(w, x, x)
		x *= ContextDecay
	}
	return w
}
