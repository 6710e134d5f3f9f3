package ui

import (
	"fmt"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// The Curate tab's keys: the queues, the control sample and the batch history, and the ids a batch action applies to.

func (p curatePane) handleKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Reload):
		return p.reload()
	case key.Matches(msg, k.History):
		p.toggleMode(modeHistory, modeBatch)
		p.changes = nil
		return p.setFilter("")
	case key.Matches(msg, k.Held):
		p.toggleMode(modeHeld)
		return p, nil
	case key.Matches(msg, k.Superseded) && p.mode != modeControl:
		p.toggleMode(modeSuperseded)
		return p.setFilter("")
	case msg.String() == "esc" && p.mode == modeQueue && p.anchor >= 0:
		p.anchor = -1
		p.status = "range cancelled"
		return p, nil
	case key.Matches(msg, k.filter.Filter) && p.filterable():
		return p, p.filter.input.Focus()
	case key.Matches(msg, k.filter.ClearSet) && p.filterable() && p.filter.input.Value() != "":
		p.filter.clear()
		return p.setFilter("")
	case key.Matches(msg, k.Control):
		p.toggleMode(modeControl)
		p.cursor = 0
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

func (p curatePane) controlKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	items := p.controlItems()
	if p.navigate(msg) {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.LabelKeep):
		return p.label(engine.TriageKeep)
	case key.Matches(msg, k.LabelEcho):
		return p.label(engine.TriageEcho)
	case key.Matches(msg, k.LabelRoleplay):
		return p.label(engine.TriageRoleplay)
	case key.Matches(msg, k.Retype):
		if p.cursor < len(items) {
			p.dlg = &dialog{kind: "retype", control: true, target: items[p.cursor].ID}
		}
	}
	return p, nil
}

func (p curatePane) historyKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	hist := p.history()
	if p.navigate(msg) {
		return p, nil
	}
	if p.histCur >= len(hist) {
		return p, nil
	}
	b := hist[p.histCur]
	switch {
	case key.Matches(msg, k.Changes):
		return p.openChanges(b)
	case key.Matches(msg, k.Rollback):
		if b.RolledBack {
			p.status = "batch " + b.Batch + " was already rolled back"
			return p, nil
		}
		return p.planRollback(b.Batch)
	}
	return p, nil
}

func (p curatePane) queueKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	queue := p.queue()
	var cur *engine.Proposal
	if p.cursor < len(queue) {
		cur = queue[p.cursor]
	}
	if p.navigate(msg) {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.Prev):
		p.kindIdx = (p.kindIdx + len(curateKinds()) - 1) % len(curateKinds())
		p.cursor, p.top, p.anchor = 0, 0, -1
	case key.Matches(msg, k.Next):
		p.kindIdx = (p.kindIdx + 1) % len(curateKinds())
		p.cursor, p.top, p.anchor = 0, 0, -1
	case key.Matches(msg, k.Select) && cur != nil:
		if p.selected[cur.ID] {
			delete(p.selected, cur.ID)
		} else {
			p.selected[cur.ID] = true
		}
		p.cursor = min(len(queue)-1, p.cursor+1)
	case key.Matches(msg, k.Range) && cur != nil:
		return p.rangeKey(queue), nil
	case key.Matches(msg, k.UndoReject):
		return p.undoReject()
	case key.Matches(msg, k.Approve) && cur != nil && cur.Kind == engine.ProposalPromote:
		return p.editWording(cur)
	case key.Matches(msg, k.Approve) && cur != nil:
		return p.decide([]int64{cur.ID}, engine.ProposalApproved)
	case key.Matches(msg, k.Reject) && cur != nil:
		return p.askReject(cur)
	case key.Matches(msg, k.Retype) && cur != nil:
		p.dlg = &dialog{kind: "retype", target: cur.ID}
	case key.Matches(msg, k.Batch):
		ids := p.batchTargets()
		if len(ids) == 0 {
			p.status = "nothing pending to approve in this queue"
			return p, nil
		}
		p.dlg = &dialog{kind: "batch", ids: ids, text: "Approve " + p.countText(ids) + "?"}
	case key.Matches(msg, k.ApplyAll):
		var ids []int64
		for _, pr := range p.props {
			if pr.Status == engine.ProposalApproved {
				ids = append(ids, pr.ID)
			}
		}
		if len(ids) == 0 {
			p.status = "nothing approved to apply"
			return p, nil
		}
		p.dlg = &dialog{kind: "apply", ids: ids,
			text: "Apply " + p.countText(ids) + " in one batch? Each change is audited; the batch can be rolled back."}
	}
	return p, nil
}

// batchTargets are the selected proposals, or with none selected every
// pending proposal of the current queue.
func (p curatePane) batchTargets() []int64 {
	var ids []int64
	if len(p.selected) > 0 {
		for id := range p.selected {
			if pr := p.proposal(id); pr != nil && pr.Status == engine.ProposalPending {
				ids = append(ids, id)
			}
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		return ids
	}
	for _, pr := range p.queue() {
		if pr.Status == engine.ProposalPending {
			ids = append(ids, pr.ID)
		}
	}
	return ids
}

// countText states the counts per kind: "12 proposals (9 quarantine, 3 retype)".
func (p curatePane) countText(ids []int64) string {
	by := map[string]int{}
	for _, id := range ids {
		if pr := p.proposal(id); pr != nil {
			by[pr.Kind]++
		}
	}
	s := fmt.Sprintf("%d proposal(s) (", len(ids))
	first := true
	for _, kind := range curateKinds() {
		if by[kind] == 0 {
			continue
		}
		if !first {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", by[kind], kind)
		first = false
	}
	return s + ")"
}
