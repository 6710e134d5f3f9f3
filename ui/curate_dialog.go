package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// The Curate dialogs' keys: confirmations, the forced rollback, the retype and store label pickers, the wording editor.

func (p curatePane) dialogKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	d := *p.dlg
	if d.kind == "wording" {
		return p.wordingKey(msg)
	}
	if d.kind == "reject" {
		return p.rejectKey(msg)
	}
	if d.kind == "rollback-force" {
		return p.forceKey(msg)
	}
	if d.kind == "retype" || d.kind == "store" {
		types := retypeTargets()
		switch {
		case key.Matches(msg, k.Up):
			d.cursor = max(0, d.cursor-1)
		case key.Matches(msg, k.Down):
			d.cursor = min(len(types)-1, d.cursor+1)
		case key.Matches(msg, k.Cancel):
			p.dlg = nil
			return p, nil
		case key.Matches(msg, k.Confirm):
			if err := d.refusal(types[d.cursor]); err != nil {
				// Refused at the key: the chooser stays open on the
				// reason (curate.CheckApproval, the rule P applies).
				p.err = engine.ErrorMessage(err)
				return p, nil
			}
			p.dlg, p.err = nil, ""
			if d.kind == "store" {
				return p.storeHeld(d.target, types[d.cursor])
			}
			label := engine.TriageRetype + ":" + types[d.cursor]
			if d.control {
				return p.labelID(d.target, label)
			}
			return p.override(d.target, label)
		}
		p.dlg = &d
		return p, nil
	}
	switch {
	case key.Matches(msg, k.Cancel):
		p.dlg = nil
		p.status = "cancelled"
	case key.Matches(msg, k.Confirm):
		p.dlg = nil
		switch d.kind {
		case "batch":
			p.queues.selected = map[int64]bool{}
			return p.decide(d.ids, engine.ProposalApproved)
		case "apply":
			return p.apply()
		case "approve-apply":
			return p.approveApply(d.ids[0])
		case "rollback":
			if d.plan != nil && d.plan.NeedsForce() {
				p.dlg = forceDialog(d.plan)
				return p, nil
			}
			return p.rollback(d.batch)
		case "skip":
			return p.skipHeld(d.target)
		}
	}
	return p, nil
}
