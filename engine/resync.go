package engine

import "context"

// A store whose seq moves backwards — a space restored from a backup, a
// server that lost acknowledged commits — hands out seqs the caches have
// already applied, and Refresh, which asks only for what lies above the
// last seq applied, would never see those writes. A change notification at
// or below that seq is therefore checked (Diverged) and, when the store no
// longer holds what the caches applied, the caches are rebuilt (Resync).

// Diverged reports whether the store's memories of seq from seq up to the
// last seq the caches applied differ from the cached ones: a row the
// caches hold that the store lost, or holds at another seq or with other
// content, status or supersession (rows above the caches' seq are not yet
// applied, and a row that moved above it was written again since, which a
// Refresh applies).
func (e *Engine) Diverged(ctx context.Context, seq int64) (bool, error) {
	top := e.Seq()
	if seq > top {
		return false, nil // not applied yet: Refresh picks it up
	}
	rows, _, err := e.store.MemoriesChangedSince(ctx, max(seq, 1)-1)
	if err != nil {
		return false, err
	}
	stored := make(map[int64]*Memory, len(rows))
	for _, m := range rows {
		stored[m.ID] = m
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, m := range rows {
		if m.Seq > top {
			continue
		}
		c, ok := e.mems[m.ID]
		if ok && c.Seq > top {
			continue // written since top was read
		}
		if !ok || c.Seq != m.Seq || c.Hash != m.Hash || c.Status != m.Status || c.SupersededBy != m.SupersededBy {
			return true, nil
		}
	}
	for id, c := range e.mems {
		if c.Seq < seq || c.Seq > top {
			continue
		}
		if s, ok := stored[id]; !ok || s.Seq < c.Seq {
			return true, nil
		}
	}
	return false, nil
}

// Resync rebuilds every cache from the store, as an Open would, and puts
// the result in place of the current caches in one step: the engine then
// holds exactly what the store holds, whatever seqs it reports. A
// pipeline's own index over the cache (the capture's dedupe index) sees
// the change and rebuilds itself.
func (e *Engine) Resync(ctx context.Context) error {
	e.refreshMu.Lock()
	defer e.refreshMu.Unlock()
	fresh, err := Open(ctx, Options{Store: e.store, Embedder: e.embedder, Judge: e.judge, Now: e.now, Config: e.cfg})
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.mems, e.ids, e.byKey, e.lex, e.vec, e.seq = fresh.mems, fresh.ids, fresh.byKey, fresh.lex, fresh.vec, fresh.seq
	e.sessions, e.hot, e.supersedes = fresh.sessions, fresh.hot, fresh.supersedes
	e.log.Invalidate()
	e.mu.Unlock()
	select {
	case e.changesChan() <- struct{}{}:
	default:
	}
	return nil
}
