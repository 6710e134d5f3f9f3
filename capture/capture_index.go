package capture

import "memtrace/engine"

// The capture's dedupe and subject index: content hashes, the LSH over the
// active memories' vectors with their block sketches (capture_dedupe.go),
// and the memories naming each subject of the supersession lexicon. The
// engine keeps one and every Capturer uses it in turn (Engine.dxMu), so a
// new Capturer — each `memtrace ingest` or import run — does not rebuild it
// over the whole store: it catches up with the cache's changes, as the
// vector index does.
//
// A Capturer that takes the index over from another (or from the engine's
// own Capture calls) first checks that it equals the index a fresh build
// over the cache would give: every indexed memory still cached, active
// and of the content it was indexed with, and no memory turned active
// below the highest indexed id (a fresh build lists the subjects' memories
// in id order). When a curator, a supersession, a rollback or another
// process (PostgreSQL notifications, applied to the cache) broke that, the
// index is rebuilt, so a run decides exactly as on a fresh build. A batch
// that fails drops the index (it may hold rolled-back inserts).
type dedupeIndex struct {
	byHash  map[string]int64
	lsh     *lshIndex
	indexed map[int64]indexedEntry
	// provisional lists inserts sketched from the vector as inserted until
	// the cache holds its copy; syncSeq is the cache's seq at the last
	// sync: while it holds, every sketch is of the vector the cache
	// returns.
	provisional []int64
	syncSeq     int64
	synced      bool // caught up at least once
	maxID       int64
	// bySubject lists, per subject, the indexed memories that name it, in
	// id order; built only when subjects (a Capturer with supersession).
	rule      *supersedeRule
	subjects  bool
	bySubject map[string][]int64
	// bySound files the terms bySubject has seen under their sound keys
	// (supersede_open.go): loanwords across the scripts.
	bySound map[string][]string
	// owner is the Capturer that last used the index.
	owner *Capturer
}

// indexedEntry is what the index holds of a memory: its Seq when its block
// sketch was taken, and the content hash it was indexed under.
type indexedEntry struct {
	seq  int64
	hash string
}

// adoptIndex hands the engine's index to c for one run, dropping it when
// it no longer equals a fresh build (see dedupeIndex). Caller holds
// c.st.dxMu.
func (c *Capturer) adoptIndex() {
	e := c.e
	dx := c.st.dx
	if dx != nil && dx.owner != c && !dx.fresh(e, c.rule != nil) {
		dx, c.st.dx = nil, nil
	}
	if dx != nil {
		dx.owner = c
	}
	c.dx = dx
}

// fresh reports whether dx equals a fresh build over e's cache.
func (dx *dedupeIndex) fresh(e *engine.Engine, subjects bool) bool {
	if subjects && !dx.subjects {
		return false
	}
	v := e.View()
	defer v.Close()
	n := 0
	for _, id := range v.IDs() {
		m := v.Memory(id)
		ent, ok := dx.indexed[id]
		switch {
		case ok:
			n++
			if m.Status != engine.StatusActive || m.Hash != ent.hash {
				return false
			}
		case m.Status == engine.StatusActive && id < dx.maxID:
			return false
		}
	}
	return n == len(dx.indexed)
}

// syncIndex adds to the dedupe index the active memories of the engine's
// cache it has not seen (all of them the first time; afterwards only what
// was added since): a map lookup per memory, hashing only new ones. A
// memory written since its sketch was taken (its Seq moved), and this
// run's inserts once the cache holds them, are sketched again from the
// cache's vector, the one the candidate scan reads.
func (c *Capturer) syncIndex() {
	e := c.e
	if c.dx == nil {
		c.dx = &dedupeIndex{byHash: map[string]int64{}, lsh: newLSH(e.Embedder().Dim()), indexed: map[int64]indexedEntry{},
			rule: newSupersedeRule(), subjects: c.rule != nil, bySubject: map[string][]int64{}, bySound: map[string][]string{}, owner: c}
		c.st.dx = c.dx
	}
	dx := c.dx
	v := e.View()
	defer v.Close()
	if dx.synced && dx.syncSeq == v.Seq() {
		return // the cache has not changed since
	}
	// What the cache took since the last sync, when it still knows it
	// (a capture syncs under the store's write lock: no pass over every
	// memory there); else every memory.
	scan := v.IDs()
	if dx.synced {
		if changed, ok := v.ChangedSince(dx.syncSeq); ok {
			scan = changed
		}
	}
	var fresh []*engine.Memory
	for _, id := range scan {
		m := v.Memory(id)
		if m == nil {
			continue
		}
		ent, ok := dx.indexed[id]
		switch {
		case !ok && m.Status == engine.StatusActive:
			fresh = append(fresh, m)
		case ok && ent.seq != m.Seq:
			ent.seq = m.Seq
			dx.indexed[id] = ent
			dx.resketchLocked(v, id, nil)
		}
	}
	// The new memories' entries on every CPU (the whole store the first
	// time), then into the index in id order.
	type prepared struct {
		en       lshEntry
		subjects []string
	}
	ready := make([]prepared, len(fresh))
	_ = parallelChunks(len(fresh), 256, func() func(lo, hi int) error {
		return func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				m := fresh[i]
				ready[i].en = dx.lsh.entry(m.Embedding)
				if dx.subjects {
					ready[i].subjects = dx.rule.indexKeys(lexNorm(m.Content), engine.LexTerms(m.Content))
				}
			}
			return nil
		}
	})
	ids := make([]int64, len(fresh))
	ens := make([]*lshEntry, len(fresh))
	for i, m := range fresh {
		dx.put(m, nil, ready[i].subjects)
		ids[i], ens[i] = m.ID, &ready[i].en
	}
	dx.lsh.putAll(ids, ens)
	for _, m := range fresh {
		dx.resketchLocked(v, m.ID, m.Embedding)
	}
	keep := dx.provisional[:0]
	for _, id := range dx.provisional {
		if v.Memory(id) != nil {
			dx.resketchLocked(v, id, nil)
		} else {
			keep = append(keep, id) // not cached (yet): still the inserted vector
		}
	}
	dx.provisional = keep
	dx.syncSeq, dx.synced = v.Seq(), true
}

// resketchLocked sketches id from the cache's vector for it, unless that is
// indexed (the slice the sketch was just taken from). v is the caller's view of the cache.
func (dx *dedupeIndex) resketchLocked(v engine.View, id int64, indexed []float32) {
	row, ok := v.Vector(id)
	if ok && len(row) > 0 && len(indexed) == len(row) && &row[0] == &indexed[0] {
		return
	}
	dx.lsh.setSketch(id, row) // no row: no sketch
}

// indexInsert adds a memory the batch being written inserted, naming
// subjects (the rule's reading of its content), but for its LSH entry:
// that waits for the end of the batch (batchWriter.flushLSH), because the
// decision workers may still be scanning the LSH.
func (dx *dedupeIndex) indexInsert(m *engine.Memory, subjects []string) {
	if !dx.subjects {
		subjects = nil
	}
	dx.put(m, nil, subjects)
}

// put adds m with its LSH entry (none: added later) and the subjects it
// names.
func (dx *dedupeIndex) put(m *engine.Memory, en *lshEntry, subjects []string) {
	dx.indexed[m.ID] = indexedEntry{seq: m.Seq, hash: m.Hash}
	dx.maxID = max(dx.maxID, m.ID)
	dx.byHash[m.Hash] = m.ID
	if en != nil {
		dx.lsh.put(m.ID, en)
	}
	for _, s := range subjects {
		ids, seen := dx.bySubject[s]
		if !seen {
			dx.indexSound(s)
		}
		dx.bySubject[s] = append(ids, m.ID)
	}
}
