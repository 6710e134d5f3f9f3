package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// enter on a batch of the history lists what it changed before anything is
// rolled back: one line per audit row (the memory, the action, before →
// after) and one per proposal the batch decided (applied, rejected,
// withdrawn), with u to roll the batch back from there.

type batchChangesMsg struct {
	Batch   string
	Entries []*engine.AuditEntry
	Props   []*engine.Proposal
	Err     error
}

// batchView is the batch enter opened in the history: its lines (AT, MEMORY, ACTION, CHANGE
// cells) in a rowList, and what the history says of it.
type batchView struct {
	curateList[[]string]
	info    engine.BatchInfo
	loading bool
}

func newBatchView(c *common) batchView {
	return batchView{curateList: newCurateList[[]string](c)}
}

// loaded fills the view with the batch's audit rows and decided proposals.
func (v batchView) loaded(msg batchChangesMsg) batchView {
	var lines [][]string
	for _, a := range msg.Entries {
		lines = append(lines, []string{a.At.UTC().Format("2006-01-02 15:04"), fmt.Sprintf("#%d", a.MemoryID), a.Action, auditChange(a)})
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
		lines = append(lines, []string{pr.DecidedAt.UTC().Format("2006-01-02 15:04"), "proposal", pr.Status, change})
	}
	v.list = v.list.setRows(lines)
	return v
}

func (v batchView) header() string {
	st := v.c.styles
	return st.App.Title.Render("BATCH ") + st.App.Muted.Render(safetext.Truncate(safetext.SanitizeLine(v.info.Batch)+" · its changes, before you roll it back", max(10, v.width-6)))
}

// keyBindings are the view's keys, with the list's.
func (v batchView) keyBindings(k curateKeys, move []key.Binding) []key.Binding {
	var out []key.Binding
	if v.info.CanRollback {
		out = []key.Binding{k.Rollback}
	}
	out = append(append(out, k.Back), listMoves(len(v.list.rows), move...)...)
	out = append(out, v.detailBindings(k.scroll, len(v.detail()))...)
	return append(out, k.Reload)
}

func (v batchView) View() string {
	st := v.c.styles
	cols := textable.Fit([]textable.Column{{Title: "AT", Width: 16}, {Title: "MEMORY", Width: 8}, {Title: "ACTION", Width: 12, Min: 10}, {Title: "CHANGE (before → after)"}}, v.width, textable.MinText)
	empty := "this batch has no audit rows and decided no proposals"
	if v.loading {
		empty = "loading the batch's changes…"
	}
	out := v.list.table(st, cols, func(_ int, line []string) ([]string, bool) { return line, false }, empty)
	return strings.Join(append(out, v.detailWindow(v.detail())...), "\n")
}

// detail is the batch and the selected change whole (J/K and the wheel
// scroll it when it is taller than its lines).
func (v batchView) detail() []string {
	st := v.c.styles
	b := v.info
	detail := []string{st.Detail.Heading.Render(safetext.Truncate(fmt.Sprintf("── batch %s · by %s · %s", b.Batch, b.Actor, b.At.UTC().Format("2006-01-02 15:04")), v.width))}
	detail = append(detail, st.Detail.Label.Render(safetext.Truncate(fmt.Sprintf("%s: %s", wording.Count(len(v.list.rows), "change"), b.Effect.String()), v.width)))
	if line, ok := v.list.current(); ok {
		for _, l := range wrapText(line[3], max(10, v.width-2), 0) {
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
	return append(detail, st.App.Muted.Render(safetext.Truncate(state, v.width)))
}

func (p curatePane) openChanges(b engine.BatchInfo) (curatePane, tea.Cmd) {
	p.mode = modeBatch
	p.batch = newBatchView(p.c)
	p.batch.info, p.batch.loading = b, true
	ctx, st, batch := p.c.ctx, p.c.deps.Store, b.Batch
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
	if p.batch.info.Batch != msg.Batch {
		return p
	}
	p.batch.loading = false
	if msg.Err != nil {
		p.err = "load batch " + msg.Batch + ": " + engine.ErrorMessage(msg.Err)
		return p
	}
	p.batch = p.batch.loaded(msg)
	return p
}

func (p curatePane) batchKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	b := p.batch.info
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Changes):
		p.mode, p.batch = modeHistory, newBatchView(p.c)
	case key.Matches(msg, k.Rollback):
		if b.RolledBack {
			p.status = "batch " + b.Batch + " was already rolled back"
			return p, nil
		}
		return p.planRollback(b.Batch)
	}
	return p, nil
}
