package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The write half of a capture batch: dedupe, reinforce, store, lessons, and the dedupe index.

// batchWriter writes one batch inside its transaction. insertedByID holds
// the memories written earlier in the same batch, which the engine's caches
// do not see until the commit.
type batchWriter struct {
	c            *Capturer
	q            Queries
	actor        Actor
	insertedByID map[int64]*Memory
	touched      map[int64]*Memory // copies of cached memories looked at in this batch
	reinforced   map[int64]*Memory // those of them written (reinforced or superseded)
	synced       bool              // the dedupe index has caught up with the cache
	taken        map[string]bool   // message ids another writer captured since the batch's check
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
	}
	rec := &CaptureRecord{MessageID: m.ID, Session: m.Session, Role: m.Role, Project: m.Project, Branch: m.Branch, Text: m.Text, At: m.At,
		Outcome: r.Outcome, DroppedBy: r.DroppedBy, Reason: r.Reason, MemoryID: r.MemoryID, Trail: r.Trail, CreatedAt: w.c.e.Now()}
	if err := w.q.InsertCapture(ctx, rec); err != nil {
		return fmt.Errorf("record capture %s: %w", m.ID, err)
	}
	return w.queue(ctx, p)
}

func (w *batchWriter) lesson(ctx context.Context, p *pending) error {
	r, f := p.res, p.lesson
	if f.Skip != "" {
		r.Trail = append(r.Trail, Decision{Layer: LayerCorrect, Verdict: "skip", Pattern: f.Skip,
			Reason: fmt.Sprintf("%s instruction (%q): not a lesson", strings.ReplaceAll(f.Skip, "_", "-"), f.Marker)})
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
	r.Trail = append(r.Trail, Decision{Layer: LayerCorrect, Verdict: verdict, Pattern: f.Key,
		Reason: fmt.Sprintf("lesson %s by %q: %d/%d, %s", f.Key, f.Marker, c.Count, PromotionThreshold, c.Status)})
	return nil
}

// storeOrReinforce inserts the memory, or reinforces the active memory it
// duplicates (same content hash, or cosine ≥ Config.DedupeSimilarity).
func (w *batchWriter) storeOrReinforce(ctx context.Context, p *pending) error {
	r, m, v := p.res, p.msg, p.verdict
	content := w.c.filter.StripMemoryTags(m.Text)
	content = strings.TrimSpace(content)
	hash := ContentHash(content)
	dup, sim := w.duplicate(hash, p.vec)
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
				w.reinforced = map[int64]*Memory{}
			}
			w.reinforced[dup.ID] = dup
		}
		r.Outcome, r.MemoryID, r.Key = OutcomeReinforced, dup.ID, dup.Key
		r.Trail = append(r.Trail, Decision{Layer: LayerDedupe, Verdict: "reinforce",
			Reason: fmt.Sprintf("duplicates memory %d (%s); access_count %d, importance %.2f → %.2f", dup.ID, sim, dup.AccessCount, before, dup.Importance)})
		return nil
	}
	mem := &Memory{Key: m.ID, Content: content, Kind: v.Kind, Type: v.Type, Importance: v.Importance,
		Scope: ProjectScope(m.Project), Role: m.Role, Session: m.Session, CreatedAt: m.At, LastAccessedAt: m.At,
		Embedding: p.vec, Embedder: w.c.e.embedder.Name()}
	if err := w.c.e.PrepareMemory(ctx, mem); err != nil {
		return err
	}
	links, notes := w.supersessions(p, mem)
	if err := w.q.InsertMemory(ctx, mem, w.actor); err != nil {
		return fmt.Errorf("store memory %s: %w", m.ID, err)
	}
	if w.insertedByID == nil {
		w.insertedByID = map[int64]*Memory{}
	}
	w.insertedByID[mem.ID] = mem
	w.c.dx.index(mem)
	w.c.dx.provisional = append(w.c.dx.provisional, mem.ID)
	r.Outcome, r.MemoryID = OutcomeStored, mem.ID
	r.Trail = append(r.Trail, Decision{Layer: LayerDedupe, Verdict: "pass", Reason: "no active duplicate"},
		Decision{Layer: LayerStore, Verdict: "store", Reason: fmt.Sprintf("memory %d: %s %s, importance %.2f, %s", mem.ID, mem.Kind, mem.Type, mem.Importance, mem.Scope)})
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
func (w *batchWriter) duplicate(hash string, vec []float32) (*Memory, string) {
	e := w.c.e
	if !w.synced {
		w.c.syncIndex()
		w.synced = true
	}
	if id, ok := w.c.dx.byHash[hash]; ok {
		if m := w.find(id); m != nil && m.Hash == hash {
			return m, "same content"
		}
	}
	// One read lock over the whole candidate scan rather than one per
	// candidate; vectorOfLocked reads the cache under it.
	e.mu.RLock()
	id, sim := w.c.dx.lsh.nearDuplicate(vec, e.cfg.DedupeSimilarity, e.seq == w.c.dx.syncSeq, w.vectorOfLocked)
	e.mu.RUnlock()
	if id == 0 {
		return nil, ""
	}
	m := w.find(id)
	if m == nil {
		return nil, ""
	}
	return m, "similarity " + strconv.FormatFloat(sim, 'f', 2, 64)
}

// written returns the memories this batch inserted or reinforced, as
// written (ID and Seq set by the store), in seq order.
func (w *batchWriter) written() []*Memory {
	out := make([]*Memory, 0, len(w.insertedByID)+len(w.reinforced))
	for _, m := range w.insertedByID {
		out = append(out, m)
	}
	for _, m := range w.reinforced {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *Memory) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// vectorOfLocked is the vector of a cached memory or of one inserted in
// this batch. Caller holds e.mu (read).
func (w *batchWriter) vectorOfLocked(id int64) ([]float32, bool) {
	if m, ok := w.insertedByID[id]; ok {
		return m.Embedding, true
	}
	return w.c.e.vec.Get(id)
}

// find returns the memory to update: this batch's own insert, or a copy of
// the cached one when it is still active.
func (w *batchWriter) find(id int64) *Memory {
	if m, ok := w.insertedByID[id]; ok {
		return m
	}
	if m, ok := w.touched[id]; ok {
		return m
	}
	m, ok := w.c.e.Memory(id)
	if !ok || m.Status != StatusActive {
		return nil
	}
	if w.touched == nil {
		w.touched = map[int64]*Memory{}
	}
	w.touched[id] = &m
	return &m
}
