package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// enter on a batch of the history lists what it changed before anything is
// rolled back: one line per audit row (the memory, the action, before →
// after) and one per proposal the batch decided (applied, rejected,
// withdrawn), with u to roll the batch back from there.

type (
	batchChangesMsg struct {
		Batch   string
		Entries []*engine.AuditEntry
		Props   []*engine.Proposal
		Err     error
	}
	// batchChanges is the open batch: its lines and their scroll.
	batchChanges struct {
		info        engine.BatchInfo
		lines       [][]string // AT, MEMORY, ACTION, CHANGE cells
		loading     bool
		cursor, top int
	}
)

func (p curatePane) openChanges(b engine.BatchInfo) (curatePane, tea.Cmd) {
	st := p.c.deps.Store
	if st == nil {
		p.err = "no store: open the UI on a database"
		return p, nil
	}
	p.mode = modeBatch
	p.changes = &batchChanges{info: b, loading: true}
	ctx, batch := p.c.ctx, b.Batch
	return p, func() tea.Msg {
		msg := batchChangesMsg{Batch: batch}
		msg.Entries, msg.Err = st.AuditForBatch(ctx, batch)
		if msg.Err == nil {
			msg.Props, msg.Err = st.FindProposals(ctx, engine.ProposalFilter{Batch: batch})
		}
		return send(paneCurate, msg)
	}
}

func (p curatePane) changesLoaded(msg batchChangesMsg) curatePane {
	if p.changes == nil || p.changes.info.Batch != msg.Batch {
		return p
	}
	c := *p.changes
	c.loading = false
	if msg.Err != nil {
		p.err = "load batch " + msg.Batch + ": " + engine.ErrorMessage(msg.Err)
		p.changes = &c
		return p
	}
	c.lines = nil
	for _, a := range msg.Entries {
		c.lines = append(c.lines, []string{a.At.UTC().Format("2006-01-02 15:04"), fmt.Sprintf("#%d", a.MemoryID), a.Action, auditChange(a)})
	}
	for _, pr := range msg.Props {
		from := pr.PriorStatus
		if from == "" {
			from = "open"
		}
		change := fmt.Sprintf("proposal %d %s: %s → %s", pr.ID, pr.Kind, from, pr.Status)
		if pr.MemoryID != 0 {
			change += fmt.Sprintf(" (memory %d)", pr.MemoryID)
		}
		c.lines = append(c.lines, []string{pr.DecidedAt.UTC().Format("2006-01-02 15:04"), "proposal", pr.Status, change})
	}
	p.changes = &c
	return p
}

func (p curatePane) batchKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	if p.changes == nil {
		p.mode = modeHistory
		return p, nil
	}
	if p.navigate(msg) {
		return p, nil
	}
	c := *p.changes
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Changes):
		p.mode, p.changes = modeHistory, nil
	case key.Matches(msg, k.Rollback):
		if c.info.RolledBack {
			p.status = "batch " + c.info.Batch + " was already rolled back"
			return p, nil
		}
		return p.planRollback(c.info.Batch)
	}
	return p, nil
}

func (p curatePane) batchView() []string {
	st := p.c.styles
	cols := layoutColumns([]column{{Title: "AT", Width: 16}, {Title: "MEMORY", Width: 8}, {Title: "ACTION", Width: 12}, {Title: "CHANGE (before → after)"}}, p.width, 10)
	out := []string{st.Table.Header.Render(tableHeader(cols))}
	if p.changes == nil {
		return fill(out, p.listRows()+1+curateDetailLines)
	}
	c := p.changes
	from, to := p.window(c.cursor, c.top, len(c.lines))
	for i := from; i < to; i++ {
		row := tableRow(cols, c.lines[i])
		if i == c.cursor {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	switch {
	case c.loading:
		out = append(out, st.App.Muted.Render("loading the batch's changes…"))
	case len(c.lines) == 0:
		out = append(out, st.App.Muted.Render("this batch has no audit rows and decided no proposals"))
	}
	out = fill(out, p.listRows()+1)
	b := c.info
	detail := []string{st.Detail.Heading.Render(safetext.Truncate(fmt.Sprintf("── batch %s · by %s · %s", b.Batch, b.Actor, b.At.UTC().Format("2006-01-02 15:04")), p.width))}
	detail = append(detail, st.Detail.Label.Render(safetext.Truncate(fmt.Sprintf("%d change(s): %s", len(c.lines), b.Effect.String()), p.width)))
	if c.cursor < len(c.lines) {
		for _, l := range wrapText(c.lines[c.cursor][3], max(10, p.width-2), 4) {
			detail = append(detail, "  "+l)
		}
	}
	state := "u rolls it back (you confirm what it would do first) · esc back to the history"
	switch {
	case b.RolledBack:
		state = "rolled back already · esc back to the history"
	case !b.CanRollback:
		state = "cannot roll back now: " + b.WhyNot + " · esc back"
	}
	detail = append(detail, st.App.Muted.Render(safetext.Truncate(state, p.width)))
	return append(out, fill(detail, curateDetailLines)...)
}
