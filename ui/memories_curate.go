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

// curate runs change on the selected memories (or the one under the
// cursor) in one transaction and one batch. change reports whether it
// changed anything; when it changed nothing, nothing is written and there
// is nothing to undo.
func (p memoriesPane) curate(action string, change func(m *engine.Memory) bool) (memoriesPane, tea.Cmd) {
	ids := p.targets()
	if len(ids) == 0 {
		return p, nil
	}
	ctx, w := p.c.ctx, p.c.deps.Engine
	p.writes++
	p.status = fmt.Sprintf("%s %s…", action, idsText(ids))
	return p, func() tea.Msg {
		changed, batch := 0, ""
		err := w.Update(ctx, func(q engine.Queries) error {
			changed = 0
			for _, id := range ids {
				m, err := q.GetMemory(ctx, id)
				if err != nil {
					return err
				}
				if !change(m) {
					continue
				}
				// One TUI action, one batch: its id comes from the
				// database's counter, so it is unique across processes
				// and clocks.
				if batch == "" {
					if batch, err = q.NextBatchID(ctx, engine.BatchCurator); err != nil {
						return err
					}
				}
				if err := q.UpdateMemory(ctx, m, engine.Actor{Name: curatorActor, Batch: batch}, action); err != nil {
					return err
				}
				changed++
			}
			return nil
		})
		if err != nil {
			batch = ""
		}
		return send(paneMemories, curatedMsg{Action: action, ID: ids[0], IDs: ids, Count: changed, Batch: batch, Changed: changed > 0, Err: err})
	}
}

// idsText names the memories of an action: "#12", or "4 memories".
func idsText(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("#%d", ids[0])
	}
	return fmt.Sprintf("%d memories", len(ids))
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
		rep, err := engine.RollbackApplied(ctx, store, batch, curatorActor)
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
