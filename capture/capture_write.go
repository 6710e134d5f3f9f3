package capture

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memtrace/engine"
	"memtrace/engine/index"
)

// The write half of a capture batch: dedupe, reinforce, store, lessons, and the dedupe index.

// batchWriter writes one batch inside its transaction. insertedByID holds
// the memories written earlier in the same batch, which the engine's caches
// do not see until the commit.
type batchWriter struct {
	c            *Capturer
	q            engine.Queries
	actor        engine.Actor
	insertedByID map[int64]*engine.Memory
	touched      map[int64]*engine.Memory // copies of cached memories looked at in this batch
	reinforced   map[int64]*engine.Memory // those of them written (reinforced or superseded)
	synced       bool                     // the dedupe index has caught up with the cache
	taken        map[string]bool          // message ids another writer captured since the batch's check
	// bands lists this batch's inserts by band code and entries holds
	// their LSH entries: the LSH takes them at the end of the batch
	// (flushLSH), while the decision workers may still scan it.
	bands   [lshBands]map[uint16][]int64
	entries map[int64]*lshEntry
	pipe    *decidePipe        // the decision workers, when on every CPU
	terms   map[int64][]string // the lexical terms of the batch's inserts
}

func (w *batchWriter) write(ctx context.Context, p *pending) error {
	r, m := p.res, p.msg
	if p.review == nil && w.taken[m.ID] { // another writer took it since the check
		r.Outcome, r.Reason, r.Trail = OutcomeSkipped, ReasonAlreadyCaptured, nil
		return nil
	}
	if p.lesson != nil {
		if err := w.lesson(ctx, p); err != nil {
			return err
		}
	}
	if p.store {
		if err := w.storeOrReinforce(ctx, p); err != nil {
			return err
		}
		if err := w.storeStatements(ctx, p); err != nil {
			return err
		}
	}
	rec := &engine.CaptureRecord{MessageID: m.ID, Session: m.Session, Role: m.Role, Project: m.Project, Branch: m.Branch, Text: m.Text, At: m.At,
		Outcome: r.Outcome, DroppedBy: r.DroppedBy, Reason: r.Reason, MemoryID: r.MemoryID, Trail: r.Trail, CreatedAt: w.c.e.Now()}
	if err := w.q.InsertCapture(ctx, rec); err != nil {
		return fmt.Errorf("record capture %s: %w", m.ID, err)
	}
	return w.queue(ctx, p)
}

func (w *batchWriter) lesson(ctx context.Context, p *pending) error {
	r, f := p.res, p.lesson
	if f.Skip != "" {
		why := fmt.Sprintf("%s instruction (%q): not a lesson", strings.ReplaceAll(f.Skip, "_", "-"), f.Marker)
		if f.Skip == skipMemoryRequest {
			why = fmt.Sprintf("a request to remember a fact (%q): a memory, not a lesson", f.Marker)
		}
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerCorrect, Verdict: "skip", Pattern: f.Skip, Reason: why})
		return nil
	}
	c, counted, err := recordLesson(ctx, w.q, f, p.msg, p.msg.At)
	if err != nil {
		return err
	}
	r.Correction = c
	verdict := "record"
	if !counted {
		verdict = "seen"
	}
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerCorrect, Verdict: verdict, Pattern: f.Key,
		Reason: fmt.Sprintf("lesson %s by %q: %d/%d, %s", f.Key, f.Marker, c.Count, engine.PromotionThreshold, c.Status)})
	return nil
}

// storeOrReinforce inserts the memory, or reinforces the active memory it
// duplicates (same content hash, or cosine ≥ Config.DedupeSimilarity).
func (w *batchWriter) storeOrReinforce(ctx context.Context, p *pending) error {
	r, m, v := p.res, p.msg, p.verdict
	w.c.prepareStore(p)
	content, hash := p.content, p.hash
	dup, sim := w.duplicate(hash, p)
	if dup != nil {
		before := dup.Importance
		dup.AccessCount++
		dup.Importance = min(1, dup.Importance+0.1*(1-dup.Importance))
		if m.At.After(dup.LastAccessedAt) {
			dup.LastAccessedAt = m.At
		}
		if err := w.q.UpdateMemory(ctx, dup, w.actor, "reinforce"); err != nil {
			return fmt.Errorf("reinforce memory %d: %w", dup.ID, err)
		}
		if _, ok := w.insertedByID[dup.ID]; !ok {
			if w.reinforced == nil {
				w.reinforced = map[int64]*engine.Memory{}
			}
			w.reinforced[dup.ID] = dup
		}
		r.Outcome, r.MemoryID, r.Key = engine.OutcomeReinforced, dup.ID, dup.Key
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerDedupe, Verdict: "reinforce",
			Reason: fmt.Sprintf("duplicates memory %d (%s); access_count %d, importance %.2f → %.2f", dup.ID, sim, dup.AccessCount, before, dup.Importance)})
		return nil
	}
	mem := &engine.Memory{Key: m.ID, Content: content, Kind: v.Kind, Type: v.Type, Importance: v.Importance,
		Scope: engine.ProjectScope(m.Project), Role: m.Role, Session: m.Session, CreatedAt: m.At, LastAccessedAt: m.At,
		Embedding: p.vec, Embedder: w.c.e.Embedder().Name()}
	if err := w.c.e.PrepareMemoryHashed(ctx, mem, hash); err != nil {
		return err
	}
	links, notes := w.supersessions(p, mem)
	insert := w.q.InsertMemory
	if ahead, ok := w.q.(insertMemoryAhead); ok {
		// A taken key fails the batch either way: on PostgreSQL the
		// insert goes with the capture row and the commit.
		insert = ahead.InsertMemoryAhead
	}
	if err := insert(ctx, mem, w.actor); err != nil {
		return fmt.Errorf("store memory %s: %w", m.ID, err)
	}
	if w.insertedByID == nil {
		w.insertedByID = map[int64]*engine.Memory{}
	}
	w.insertedByID[mem.ID] = mem
	w.c.dx.indexInsert(mem, p.subjects)
	if w.terms == nil {
		w.terms = map[int64][]string{}
	}
	w.terms[mem.ID] = p.terms
	if w.entries == nil {
		w.entries = map[int64]*lshEntry{}
	}
	w.entries[mem.ID] = p.entry
	for b, c := range p.entry.codes {
		if w.bands[b] == nil {
			w.bands[b] = map[uint16][]int64{}
		}
		w.bands[b][c] = append(w.bands[b][c], mem.ID)
	}
	w.c.dx.provisional = append(w.c.dx.provisional, mem.ID)
	r.Outcome, r.MemoryID = engine.OutcomeStored, mem.ID
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerDedupe, Verdict: "pass", Reason: "no active duplicate"},
		engine.Decision{Layer: engine.LayerStore, Verdict: "store", Reason: fmt.Sprintf("memory %d: %s %s, importance %.2f, %s", mem.ID, mem.Kind, mem.Type, mem.Importance, mem.Scope)})
	r.Trail = append(r.Trail, notes...)
	for _, l := range links {
		if err := w.linkSuperseded(ctx, p, mem, l); err != nil {
			return err
		}
	}
	return nil
}

// duplicate finds an active memory with the same content hash or a vector
// at least DedupeSimilarity close, in the engine's caches or among this
// batch's inserts. It returns the memory to update and how it matched.
// It sets p.entry, the index entry of p.vec, when the decision did not.
func (w *batchWriter) duplicate(hash string, p *pending) (*engine.Memory, string) {
	e := w.c.e
	if !w.synced {
		if w.c.dx != nil {
			if e.Seq() != w.c.dx.syncSeq {
				// Another writer's changes reached the cache: the index
				// catches up once no worker scans it.
				w.pipe.finish(false)
			}
		}
		w.c.syncIndex()
		w.synced = true
	}
	if p.entry == nil {
		en := w.c.dx.lsh.entry(p.vec)
		p.entry = &en
	}
	if id, ok := w.c.dx.byHash[hash]; ok {
		if m := w.find(id); m != nil && m.Hash == hash {
			return m, "same content"
		}
	}
	// One read lock over the whole candidate scan rather than one per
	// candidate: the LSH holds only cached memories, read under it.
	dx, thr := w.c.dx, w.c.gates.dedupe.Threshold
	var id int64
	var sim float64
	if p.pre != nil && p.pre.seq == dx.syncSeq {
		// The LSH was scanned while deciding, at the seq it is still at.
		id, sim = p.pre.id, p.pre.sim
	} else {
		v := e.View()
		var ok bool
		if p.pre != nil {
			changed, known := v.ChangedSince(p.pre.seq)
			id, sim, ok = dx.lsh.rescan(p.pre, changed, known, p.vec, p.entry, thr, v.Vector)
		}
		if !ok {
			id, sim = dx.lsh.scan(&dx.lsh.own, p.vec, p.entry, thr, v.Seq() == dx.syncSeq, v.Vector)
		}
		v.Close()
	}
	// The LSH holds none of this batch's inserts yet: they are scanned here.
	if bid, bsim := w.batchNearest(p.vec, p.entry, thr); bid != 0 && (id == 0 || bsim > sim || bsim == sim && bid < id) {
		id, sim = bid, bsim
	}
	if id == 0 {
		return nil, ""
	}
	m := w.find(id)
	if m == nil {
		return nil, ""
	}
	return m, "similarity " + strconv.FormatFloat(sim, 'f', 2, 64)
}

// batchNearest is lshIndex.scan over this batch's inserts only: the most
// similar at or above threshold among those sharing a band with vec (whose
// entry is q), the lower id on a tie, by the same cosine.
func (w *batchWriter) batchNearest(vec []float32, q *lshEntry, threshold float64) (int64, float64) {
	var best int64
	bestSim := threshold
	qn := q.norm
	if qn == 0 {
		return 0, 0
	}
	for b, c := range q.codes {
		for _, id := range w.bands[b][c] {
			m, en := w.insertedByID[id], w.entries[id]
			if m == nil || en == nil || en.norm == 0 || len(m.Embedding) != len(vec) {
				continue
			}
			vn := en.norm
			sim := float64(index.Dot(vec, m.Embedding)) / (qn * vn)
			if sim >= bestSim && (best == 0 || sim > bestSim || id < best) {
				best, bestSim = id, sim
			}
		}
	}
	return best, bestSim
}

// flushLSH puts the batch's inserts into the LSH, in id order, once no
// decision worker scans it.
func (w *batchWriter) flushLSH() {
	if len(w.entries) == 0 {
		return // nothing inserted (and perhaps no index)
	}
	ids := make([]int64, 0, len(w.entries))
	for id := range w.entries {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ens := make([]*lshEntry, len(ids))
	for i, id := range ids {
		ens[i] = w.entries[id]
	}
	w.c.dx.lsh.putAll(ids, ens)
}

// written returns the memories this batch inserted or reinforced, as
// written (ID and Seq set by the store), in seq order.
func (w *batchWriter) written() []*engine.Memory {
	out := make([]*engine.Memory, 0, len(w.insertedByID)+len(w.reinforced))
	for _, m := range w.insertedByID {
		out = append(out, m)
	}
	for _, m := range w.reinforced {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *engine.Memory) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// find returns the memory to update: this batch's own insert, or a copy of
// the cached one when it is still active.
func (w *batchWriter) find(id int64) *engine.Memory {
	if m, ok := w.insertedByID[id]; ok {
		return m
	}
	if m, ok := w.touched[id]; ok {
		return m
	}
	m, ok := w.c.e.Memory(id)
	if !ok || m.Status != engine.StatusActive {
		return nil
	}
	if w.touched == nil {
		w.touched = map[int64]*engine.Memory{}
	}
	w.touched[id] = &m
	return &m
}
