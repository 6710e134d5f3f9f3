package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// The Curate tab's keys: those of every view (reload, the view toggles,
// the filter), then the current view's list, then its actions.

func (p curatePane) handleKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Reload):
		return p.reload()
	case key.Matches(msg, k.History):
		p.toggleMode(modeHistory, modeBatch)
		p.batch = newBatchView(p.c)
		return p.setFilter("")
	case key.Matches(msg, k.Held):
		p.toggleMode(modeHeld)
		return p, nil
	case key.Matches(msg, eraseKey):
		return p.openErase()
	case key.Matches(msg, k.Superseded) && p.mode != modeControl:
		p.toggleMode(modeSuperseded)
		return p.setFilter("")
	case msg.String() == "esc" && p.mode == modeQueue && p.queues.anchor >= 0:
		p.queues.anchor = -1
		p.status = "range cancelled"
		return p, nil
	case key.Matches(msg, k.filter.Filter) && p.filterable():
		return p, p.filter.input.Focus()
	case key.Matches(msg, k.filter.ClearSet) && p.filterable() && p.filter.input.Value() != "":
		p.filter.clear()
		return p.setFilter("")
	case key.Matches(msg, k.Leave) && (p.mode == modeHistory || p.mode == modeHeld || p.mode == modeControl || p.mode == modeSuperseded):
		p.mode = modeQueue
		return p.setFilter("")
	case key.Matches(msg, k.Control):
		p.toggleMode(modeControl)
		// Both ways the list starts on its first row.
		p.control.list = p.control.list.moveTo(0)
		p.queues.list = p.queues.list.moveTo(0)
		return p, nil
	}
	if p, used := p.updateView(msg); used {
		return p, nil
	}
	switch p.mode {
	case modeControl:
		return p.controlKey(msg)
	case modeHistory:
		return p.historyKey(msg)
	case modeHeld:
		return p.heldKey(msg)
	case modeBatch:
		return p.batchKey(msg)
	case modeSuperseded:
		return p.supersededKey(msg)
	}
	return p.queueKey(msg)
}

func (p curatePane) queueKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	cur, ok := p.queues.list.current()
	switch {
	case key.Matches(msg, k.Range) && ok:
		p.queues, p.status = p.queues.markRange()
	case key.Matches(msg, k.UndoReject):
		return p.undoReject()
	case key.Matches(msg, k.Approve) && ok && cur.Kind == engine.ProposalPromote:
		return p.editWording(cur)
	case key.Matches(msg, k.Approve) && ok:
		return p.decide([]int64{cur.ID}, engine.ProposalApproved)
	case key.Matches(msg, k.Reject) && ok:
		return p.askReject(cur)
	case key.Matches(msg, k.Retype) && ok:
		p.dlg = p.queues.retypeDialog(cur)
	case key.Matches(msg, k.ApproveApply) && ok:
		if cur.Kind == engine.ProposalPromote {
			p.status = "a promotion is approved with its wording: a opens the editor, then P applies it"
			return p, nil
		}
		p.dlg = &dialog{kind: "approve-apply", ids: []int64{cur.ID},
			text: fmt.Sprintf("Approve and apply proposal %d now, in a batch of its own? It is audited and can be rolled back.", cur.ID)}
	case key.Matches(msg, k.Batch):
		ids := p.queues.batchTargets()
		if len(ids) == 0 {
			p.status = "nothing pending to approve in this queue"
			return p, nil
		}
		p.dlg = &dialog{kind: "batch", ids: ids, text: "Approve " + p.queues.countText(ids) + "?"}
	case key.Matches(msg, k.ApplyAll):
		ids := p.queues.approved()
		if len(ids) == 0 {
			p.status = "nothing approved to apply"
			return p, nil
		}
		p.dlg = &dialog{kind: "apply", ids: ids,
			text: "Apply " + p.queues.countText(ids) + " in one batch? Each change is audited; the batch can be rolled back."}
	}
	return p, nil
}
