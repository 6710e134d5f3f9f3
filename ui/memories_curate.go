package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
)

// Curator actions: each is one curate action (curate.Quarantine, Restore,
// AdjustImportance) — one transaction that writes the memories and an
// audit row each under actor "curator" and a fresh batch; undo rolls the
// newest batch back.

const curatorActor = "curator"

func (p memoriesPane) quarantine() (memoriesPane, tea.Cmd) {
	return p.curate(curate.ActionQuarantine, curate.Quarantine)
}

func (p memoriesPane) restore() (memoriesPane, tea.Cmd) {
	return p.curate(curate.ActionRestore, curate.Restore)
}

func (p memoriesPane) changeImportance(delta float64) (memoriesPane, tea.Cmd) {
	return p.curate(curate.ActionImportance, func(ctx context.Context, e *engine.Engine, ids []int64, a engine.Actor) (curate.Changed, error) {
		return curate.AdjustImportance(ctx, e, ids, delta, a)
	})
}

// curate runs action on the selected memories (or the one under the
// cursor): one transaction and one batch. When it changed nothing, nothing
// is written and there is no batch to undo.
func (p memoriesPane) curate(name string, action func(ctx context.Context, e *engine.Engine, ids []int64, a engine.Actor) (curate.Changed, error)) (memoriesPane, tea.Cmd) {
	ids := p.targets()
	if len(ids) == 0 {
		// Never a silent no-op: the row under the cursor is not there yet
		// (the window is being fetched again, after a write or R), or there
		// is none.
		if p.list.loading {
			p.status = fmt.Sprintf("%s: the list is reloading, nothing was changed; press the key again when the rows show", name)
		} else {
			p.status = fmt.Sprintf("%s: no memory under the cursor, nothing was changed", name)
		}
		return p, nil
	}
	ctx, eng := p.c.ctx, p.c.deps.Engine
	p.writes++
	p.status = fmt.Sprintf("%s %s…", name, idsText(ids))
	return p, func() tea.Msg {
		ch, err := action(ctx, eng, ids, engine.Actor{Name: curatorActor})
		return send(paneMemories, curatedMsg{Action: name, ID: ids[0], IDs: ids, Count: ch.Count, Batch: ch.Batch, Changed: ch.Count > 0, Err: err})
	}
}

// idsText names the memories of an action: "#12", or "4 memories".
func idsText(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("#%d", ids[0])
	}
	return wording.Memories(len(ids))
}

func (p memoriesPane) curated(msg curatedMsg) (memoriesPane, tea.Cmd) {
	p.writes--
	what := fmt.Sprintf("#%d", msg.ID)
	if len(msg.IDs) > 1 {
		what = idsText(msg.IDs)
	}
	switch {
	case msg.Err != nil:
		p.err = fmt.Sprintf("%s %s: %s", msg.Action, what, engine.ErrorMessage(msg.Err))
		p.status = ""
		return p, nil
	case !msg.Changed:
		p.status = fmt.Sprintf("%s %s: nothing to change", msg.Action, what)
		return p, nil
	}
	p.err = ""
	p.batches = append(p.batches, msg.Batch)
	p.status = fmt.Sprintf("%s %s done (batch %s)", msg.Action, what, msg.Batch)
	if len(msg.IDs) > 1 {
		p.status = fmt.Sprintf("%s: %d of %d selected changed in batch %s (u undoes it)", msg.Action, msg.Count, len(msg.IDs), msg.Batch)
		p.selected = map[int64]bool{}
	}
	p, cmd := p.reload()
	return p, tea.Batch(cmd, storeChanged(paneMemories))
}

// undo rolls back the newest curator batch of this session.
func (p memoriesPane) undo() (memoriesPane, tea.Cmd) {
	if len(p.batches) == 0 {
		p.status = "nothing to undo"
		return p, nil
	}
	batch := p.batches[len(p.batches)-1]
	p.batches = p.batches[:len(p.batches)-1]
	ctx, store, eng := p.c.ctx, p.c.deps.Store, p.c.deps.Engine
	p.writes++
	p.status = "undo " + batch + "…"
	return p, func() tea.Msg {
		rep, err := curate.RollbackApplied(ctx, store, batch, curatorActor)
		if err != nil {
			return send(paneMemories, undoneMsg{Batch: batch, Err: err})
		}
		// The rollback went around the engine: let it pick the restored
		// rows up.
		refreshErr := eng.Refresh(ctx)
		return send(paneMemories, undoneMsg{Batch: batch, Restored: rep.Restored, RefreshErr: refreshErr})
	}
}

func (p memoriesPane) undone(msg undoneMsg) (memoriesPane, tea.Cmd) {
	p.writes--
	if msg.Err != nil {
		p.batches = append(p.batches, msg.Batch)
		p.err = "undo: " + engine.ErrorMessage(msg.Err)
		p.status = ""
		return p, nil
	}
	p.err = ""
	if msg.RefreshErr != nil {
		p.err = "undone, but the engine did not refresh: " + engine.ErrorMessage(msg.RefreshErr) + " (press R)"
	}
	p.status = fmt.Sprintf("undid %s (%d restored)", msg.Batch, msg.Restored)
	p, cmd := p.reload()
	return p, tea.Batch(cmd, storeChanged(paneMemories))
}
