package ui

import (
	"memtrace/curate"
	"memtrace/engine"
)

// retypeDialog opens the retype chooser for a queued proposal on the
// first type that is not the memory's own: that one is marked, and
// choosing it is refused (refusal).
func (v queuesView) retypeDialog(pr *engine.Proposal) *dialog {
	d := &dialog{kind: "retype", target: pr.ID, memory: pr.MemoryID}
	if m, ok := v.memories[pr.MemoryID]; ok {
		d.current = m.Type
	}
	for i, t := range retypeTargets() {
		if t != d.current {
			d.cursor = i
			break
		}
	}
	return d
}

// refusal is why choosing type t in the retype chooser would be a
// decision that changes nothing: curate.CheckApproval on the retype it
// would record, against the memory as the queue loaded it. Nil for the
// store chooser and the control sample's blind labels.
func (d dialog) refusal(t string) error {
	if d.kind != "retype" || d.control || d.current == "" {
		return nil
	}
	m := &engine.Memory{ID: d.memory, Type: d.current, Status: engine.StatusActive}
	return curate.CheckApproval(&engine.Proposal{ID: d.target, Kind: engine.ProposalRetype, TargetType: t, MemoryID: d.memory}, m)
}

// focus puts the cursor on proposal id, in its queue; false when no
// queue holds it open.
func (v queuesView) focus(id int64) (queuesView, bool) {
	pr := v.proposal(id)
	if pr == nil || !isOpen(pr) {
		return v, false
	}
	for i, kind := range curateKinds() {
		if kind != queueKind(pr) {
			continue
		}
		v = v.setKind(i)
		for j, r := range v.list.rows {
			if r.ID == id {
				v.list = v.list.moveTo(j)
				return v, true
			}
		}
	}
	return v, false
}
