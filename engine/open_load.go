package engine

import (
	"context"

	"memtrace/engine/index"
	"memtrace/engine/lexfile"
	"memtrace/engine/textnorm"
)

// The bulk load at open: Open decodes the rows, and these goroutines cache
// them, tokenise them and fill the vector index as they come; buildLexical
// posts the lexical index once at the end.

// bulkLoad caches the batches an open reads — caches, terms and session
// places on one goroutine, the vector index on another, without the
// lexical postings (buildLexical posts them once at the end) — in the
// order given. Until finish returns, those goroutines own e.
type bulkLoad struct {
	jobs  chan []*Memory
	vecs  chan []*Memory
	done  chan struct{}
	vdone chan struct{}
	err   error // the first failure; written by the goroutine, read after done
	moved bool  // the vector slab moved: cached memories must follow their rows
}

// startBulkLoad starts the goroutines; n is the number of memories
// expected (a hint: the caches are sized for it), lx the lexicon file's;
// post: post the vector postings at the end (else they stay deferred,
// Options.OneShot).
func (e *Engine) startBulkLoad(ctx context.Context, n int, lx *lexfile.Load, post bool) *bulkLoad {
	ld := &bulkLoad{jobs: make(chan []*Memory, 8), vecs: make(chan []*Memory, 8), done: make(chan struct{}), vdone: make(chan struct{})}
	e.sessions = newSessionIndex(n)
	e.mems, e.byKey = make(map[int64]*Memory, n), make(map[string]int64, n)
	e.ids = make([]int64, 0, n)
	e.vec.DeferPostings() // posted at once when the last row is in (finish)
	go func() {
		defer close(ld.vdone)
		if post {
			defer e.vec.PostDeferred()
		}
		for ms := range ld.vecs {
			for _, m := range ms {
				if e.cacheVector(m) {
					ld.moved = true
				}
			}
		}
	}()
	go func() {
		defer close(ld.done)
		defer close(ld.vecs)
		// The terms of many memories share one block; a row the lexicon
		// file holds as it is takes its terms from there.
		var memo textnorm.Memo
		var block []int32
		for ms := range ld.jobs {
			if ld.err != nil {
				continue // drain
			}
			if err := e.ensureVectors(ctx, ms); err != nil {
				ld.err = err
				continue
			}
			ld.vecs <- ms
			for _, m := range ms {
				e.cacheFields(m)
				if cap(block)-len(block) < 256 {
					block = make([]int32, 0, 1<<14)
				}
				first := len(block)
				var ok bool
				if block, ok = lx.Terms(block, m.ID, m.Seq, m.Content, e.lex.TermNo); !ok {
					block = memo.Nos(block, m.Content, e.lex.TermNo)
				}
				var toks []int32 // a memory without terms has none (as termNos)
				if len(block) > first {
					toks = block[first:len(block):len(block)]
				}
				e.placeSession(m, toks)
			}
		}
	}()
	return ld
}

// add queues a batch; ms must not be modified afterwards. A failure shows
// at finish (the goroutines drain the rest).
func (ld *bulkLoad) add(ms []*Memory) { ld.jobs <- ms }

// finish waits for every queued batch and returns the first failure.
func (ld *bulkLoad) finish() error {
	close(ld.jobs)
	<-ld.done
	<-ld.vdone
	return ld.err
}

// buildLexical posts every cached memory's own words into the lexical
// index, which holds no document yet (its term numbers were assigned as the
// memories were tokenised), with index.BM25.AddDocs — every term's
// postings allocated once, at their final size — then gives each memory of
// a session its window and every memory its length. Caller owns e.
func (e *Engine) buildLexical() {
	if e.sessions == nil {
		e.sessions = newSessionIndex(0)
	}
	s := e.sessions
	total := 0
	for _, id := range e.ids {
		total += len(s.toks[id])
	}
	// Each document's distinct terms and their counts, in the order they
	// first occur (as termCounts), counted in a flat array.
	seen := make([]float64, e.lex.NumTerms())
	start := make([]int, 1, len(e.ids)+1)
	nos := make([]int32, 0, total)
	vals := make([]float64, 0, total)
	for _, id := range e.ids {
		first := len(nos)
		for _, no := range s.toks[id] {
			if seen[no] == 0 {
				nos = append(nos, no)
			}
			seen[no]++
		}
		for _, no := range nos[first:] {
			vals = append(vals, seen[no])
			seen[no] = 0
		}
		start = append(start, len(nos))
	}
	e.lex.AddDocs(e.ids, start, nos, vals, 2)
	window := make([]int64, 2*ContextWindow)
	for _, ids := range s.order {
		for i, id := range ids {
			for d := 1; d <= ContextWindow; d++ {
				window[2*(d-1)], window[2*(d-1)+1] = index.None, index.None
				if j := i - d; j >= 0 {
					window[2*(d-1)] = ids[j]
				}
				if j := i + d; j < len(ids) {
					window[2*(d-1)+1] = ids[j]
				}
			}
			m := e.mems[id]
			e.lex.SetContext(id, window, m != nil && m.Status != StatusQuarantined)
		}
	}
	e.lex.RelengthAll()
}

// openLexicon starts the open's use of the store's lexicon file, if it has one.
func openLexicon(ctx context.Context, s Store) *lexfile.Load {
	if lf, ok := s.(LexiconFiles); ok {
		path, perm := lf.LexiconFile()
		return lexfile.Start(ctx, path, perm, lf.Erasures)
	}
	return nil
}

// saveLexicon ends it: the file is rewritten when too many rows were
// tokenised. Caller owns e.
func (e *Engine) saveLexicon(ctx context.Context, lx *lexfile.Load) {
	_ = lx.Finish(ctx, e.lex.Terms(), len(e.ids), func(i int) (int64, int64, string, []int32) {
		m := e.mems[e.ids[i]]
		return m.ID, m.Seq, m.Content, e.sessions.toks[m.ID]
	})
}
