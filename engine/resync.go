package engine

import (
	"context"
	"fmt"
)

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

// Refresh picks up every memory written since the last refresh, by this
// process or another sharing the database. Refreshes run one at a time
// (refreshMu): one that waited asks only for what the other did not apply.
func (e *Engine) Refresh(ctx context.Context) error {
	e.refreshMu.Lock()
	defer e.refreshMu.Unlock()
	return e.refreshLocked(ctx)
}

// RefreshPast is Refresh unless the caches have already applied seq (a
// change notification's, applied by this process's own write or a refresh
// that ran while it waited): then it costs no store query.
func (e *Engine) RefreshPast(ctx context.Context, seq int64) error {
	if e.Seq() >= seq {
		return nil
	}
	e.refreshMu.Lock()
	defer e.refreshMu.Unlock()
	if e.Seq() >= seq {
		return nil
	}
	return e.refreshLocked(ctx)
}

func (e *Engine) refreshLocked(ctx context.Context) error {
	e.mu.RLock()
	seq := e.seq
	e.mu.RUnlock()
	ms, _, err := e.store.MemoriesChangedSince(ctx, seq)
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	if len(ms) == 0 {
		return nil
	}
	if err := e.load(ctx, ms); err != nil {
		return err
	}
	select {
	case e.changesChan() <- struct{}{}:
	default: // one pending signal stands for any number of refreshes
	}
	return nil
}

// Changes is signalled whenever a Refresh applied changed memories, this
// process's or another's (on PostgreSQL the CLI refreshes on every change
// notification); a view of the store reloads on it, one signal for many.
func (e *Engine) Changes() <-chan struct{} { return e.changesChan() }

func (e *Engine) changesChan() chan struct{} {
	e.changesOnce.Do(func() { e.changes = make(chan struct{}, 1) })
	return e.changes
}

// Seq is the highest store seq the caches have applied: a change
// notification at or below it is already in them.
func (e *Engine) Seq() int64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.seq
}
