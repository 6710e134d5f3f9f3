package ui

import (
	"fmt"
	"math"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// Curator actions. Each is one transaction through the engine (or the store
// without one) that writes the memory and an audit row under actor
// "curator" and a fresh batch; undo rolls the newest batch back.

const curatorActor = "curator"

func (p memoriesPane) quarantine() (memoriesPane, tea.Cmd) {
	return p.curate("quarantine", func(m *engine.Memory) bool {
		if m.Status == engine.StatusQuarantined {
			return false
		}
		// Quarantine is reversible: the label the memory had is kept in
		// orig_type, the content and type are untouched.
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = engine.StatusQuarantined
		return true
	})
}

func (p memoriesPane) restore() (memoriesPane, tea.Cmd) {
	return p.curate("restore", func(m *engine.Memory) bool {
		if m.Status == engine.StatusActive {
			return false
		}
		m.Status = engine.StatusActive
		return true
	})
}

func (p memoriesPane) changeImportance(delta float64) (memoriesPane, tea.Cmd) {
	return p.curate("importance", func(m *engine.Memory) bool {
		v := math.Round((m.Importance+delta)*100) / 100
		v = math.Max(0, math.Min(1, v))
		if v == m.Importance {
			return false
		}
		m.Importance = v
		return true
	})
}

// curate runs change on the selected memory in one transaction. change
// reports whether it changed anything; when it did not, nothing is written
// and there is nothing to undo.
func (p memoriesPane) curate(action string, change func(m *engine.Memory) bool) (memoriesPane, tea.Cmd) {
	sel, ok := p.list.selected()
	if !ok {
		return p, nil
	}
	w := p.c.writer()
	if w == nil {
		p.err = "no store: open the UI on a database"
		return p, nil
	}
	id, ctx := sel.ID, p.c.ctx
	p.writes++
	p.status = fmt.Sprintf("%s #%d…", action, id)
	return p, func() tea.Msg {
		changed, batch := false, ""
		err := w.Update(ctx, func(q engine.Queries) error {
			m, err := q.GetMemory(ctx, id)
			if err != nil {
				return err
			}
			if !change(m) {
				return nil
			}
			// One TUI action, one batch: its id comes from the database's
			// counter, so it is unique across processes and clocks.
			if batch, err = q.NextBatchID(ctx, engine.BatchCurator); err != nil {
				return err
			}
			changed = true
			return q.UpdateMemory(ctx, m, engine.Actor{Name: curatorActor, Batch: batch}, action)
		})
		return send(paneMemories, curatedMsg{Action: action, ID: id, Batch: batch, Changed: changed, Err: err})
	}
}

func (p memoriesPane) curated(msg curatedMsg) (memoriesPane, tea.Cmd) {
	p.writes--
	switch {
	case msg.Err != nil:
		p.err = fmt.Sprintf("%s #%d: %s", msg.Action, msg.ID, engine.ErrorMessage(msg.Err))
		p.status = ""
		return p, nil
	case !msg.Changed:
		p.status = fmt.Sprintf("%s #%d: nothing to change", msg.Action, msg.ID)
		return p, nil
	}
	p.err = ""
	p.batches = append(p.batches, msg.Batch)
	p.status = fmt.Sprintf("%s #%d done (batch %s)", msg.Action, msg.ID, msg.Batch)
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
		rep, err := engine.RollbackApplied(ctx, store, batch, curatorActor)
		if err != nil {
			return send(paneMemories, undoneMsg{Batch: batch, Err: err})
		}
		n := rep.Restored
		var refreshErr error
		if eng != nil {
			// The rollback went around the engine: let it pick the
			// restored rows up.
			refreshErr = eng.Refresh(ctx)
		}
		return send(paneMemories, undoneMsg{Batch: batch, Restored: n, RefreshErr: refreshErr})
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
