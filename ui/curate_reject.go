package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
)

// Rejecting in the Curate tab: x asks for a reason, prefilled with the
// usual one for the proposal's kind (optional: an empty reason is fine),
// and rejects the selected proposals (or the one under the cursor) in one
// batch, as `memtrace reject --reason` does. u rolls the newest rejection
// of the session back: every proposal returns to the status it had; the
// batch history lists rejections too, where enter shows them and u undoes
// any of them.

// rejectReason is the prefilled reason for rejecting pr.
func rejectReason(pr *engine.Proposal) string {
	switch pr.Kind {
	case engine.ProposalQuarantine:
		return "a real memory, not an echo"
	case engine.ProposalRetype:
		return "the type is right"
	case engine.ProposalKeep:
		return "should not be kept as it is"
	case engine.ProposalPromote:
		return "not a rule for every session"
	case engine.ProposalDemote, engine.ProposalArchive:
		return "still needed"
	case engine.ProposalRestore:
		return "stays quarantined"
	}
	return "not needed"
}

// askReject opens the reason editor for the selected proposals, or for cur
// when none is selected.
func (p curatePane) askReject(cur *engine.Proposal) (curatePane, tea.Cmd) {
	ids := []int64{cur.ID}
	what := fmt.Sprintf("proposal %d (%s)", cur.ID, cur.Kind)
	if len(p.queues.selected) > 0 {
		ids = p.queues.selectedOpen()
		if len(ids) == 0 {
			p.status = "none of the selected proposals is open"
			return p, nil
		}
		what = p.queues.countText(ids)
	}
	in := newTextInput(p.c, "reason › ", "optional: why")
	in.CharLimit = maxReasonChars
	in.SetWidth(max(10, p.width-len(in.Prompt)-6))
	in.SetValue(rejectReason(cur))
	cmd := in.Focus()
	p.dlg = &dialog{kind: "reject", ids: ids, input: in,
		text: "Reject " + what + "? Edit or clear the reason; enter rejects (u undoes), esc cancels."}
	return p, cmd
}

// rejectKey edits the reason; enter rejects, esc cancels.
func (p curatePane) rejectKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	d := *p.dlg
	switch msg.String() {
	case "esc":
		p.dlg = nil
		p.status = "cancelled: nothing was rejected"
		return p, nil
	case "enter":
		p.dlg = nil
		p.queues.selected = map[int64]bool{}
		return p.reject(d.ids, d.input.Value())
	case "ctrl+o":
		// A long reason in $EDITOR (what was over the limit comes back).
		return p.editDraft(d, editReason)
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	p.dlg = &d
	return p, cmd
}

func (p curatePane) reject(ids []int64, reason string) (curatePane, tea.Cmd) {
	ctx, w, now := p.c.ctx, p.c.deps.Engine, p.c.now()
	p.writes++
	return p, func() tea.Msg {
		res, err := curate.RejectProposalsInBatch(ctx, w, ids, curate.RejectOptions{Curator: curatorActor, Reason: reason, Now: now})
		if err != nil {
			return send(paneCurate, curateDoneMsg{Err: err})
		}
		if res.Rejected == 0 {
			return send(paneCurate, curateDoneMsg{What: "nothing rejected: already rejected"})
		}
		return send(paneCurate, curateDoneMsg{Rejected: res.Batch,
			What: fmt.Sprintf("rejected %s in batch %s; no memory changed; u undoes", wording.Count(res.Rejected, "proposal"), res.Batch)})
	}
}

// noteRejects keeps the session's rejection batches for u.
func (p *curatePane) noteRejects(msg curateDoneMsg) {
	if msg.Rejected != "" {
		p.rejects = append(p.rejects, msg.Rejected)
	}
	if msg.Undid != "" {
		for i := len(p.rejects) - 1; i >= 0; i-- {
			if p.rejects[i] == msg.Undid {
				p.rejects = append(p.rejects[:i], p.rejects[i+1:]...)
				break
			}
		}
	}
}

// undoReject rolls back the newest rejection of this session.
func (p curatePane) undoReject() (curatePane, tea.Cmd) {
	if len(p.rejects) == 0 {
		p.status = "no rejection to undo in this session (the batch history lists older ones: H)"
		return p, nil
	}
	batch := p.rejects[len(p.rejects)-1]
	ctx, st := p.c.ctx, p.c.deps.Store
	p.writes++
	return p, func() tea.Msg {
		rep, err := curate.RollbackApplied(ctx, st, batch, curatorActor)
		if err != nil {
			return send(paneCurate, curateDoneMsg{Err: err})
		}
		return send(paneCurate, curateDoneMsg{Undid: batch,
			What: fmt.Sprintf("undid rejection %s: %s open again as they were", batch, wording.Count(rep.Rejected, "proposal"))})
	}
}

// rejectView is the reason editor.
func (p curatePane) rejectView() string {
	st := p.c.styles
	d := p.dlg
	return st.App.Title.Render(safetext.SanitizeLine(d.text)) + "\n" +
		d.input.View() + "\n" +
		st.App.Muted.Render("enter reject · esc cancel · the reason is kept with the proposal")
}

// stillRejected keeps the session's rejection batches the history still
// lists as rejections that are not rolled back (one rolled back from
// the history stays there, marked so, beside its rollback).
func stillRejected(rejects []string, hist []engine.BatchInfo) []string {
	open := map[string]bool{}
	for _, b := range hist {
		if b.Effect.Rejected > 0 && !b.RolledBack {
			open[b.Batch] = true
		}
	}
	var out []string
	for _, r := range rejects {
		if open[r] {
			out = append(out, r)
		}
	}
	return out
}

// editDraft opens a dialog's text in $EDITOR: the input's value, or the
// draft that was over the field's limit last time, to be shortened.
func (p curatePane) editDraft(d dialog, target editTarget) (curatePane, tea.Cmd) {
	text := d.input.Value()
	if d.draft != "" {
		text = d.draft
	}
	cmd, err := editInEditor(text, target)
	if err != nil {
		p.status = err.Error()
	}
	return p, cmd
}
