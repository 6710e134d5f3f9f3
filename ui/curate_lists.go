package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
)

// The Curate tab's lists as lists: the "/" filter of the queues, the batch
// history and the superseded links (unknown fields and values said
// inline), the mouse (a click selects, the wheel scrolls) and V ranges.

// curateQueueQuery is the queues' filter: status, by (the proposer),
// flag, and words of the memory text or the reason. flags are the flags
// a proposal can carry (nil: the judge's, engine.VerdictFlags).
func curateQueueQuery(text func(*engine.Proposal) string, flags func() []string) rowQuery[*engine.Proposal] {
	if flags == nil {
		flags = func() []string { return engine.VerdictFlags }
	}
	return rowQuery[*engine.Proposal]{
		Fields: []filterField[*engine.Proposal]{
			{Name: "status", Values: []string{engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved},
				Match: func(pr *engine.Proposal, v string) bool { return pr.Status == v }},
			{Name: "by", Values: []string{engine.ProposerJudge, engine.ProposerHeartbeat, engine.ProposerRule, engine.ProposerCurator, curate.ProposerImport},
				Match: func(pr *engine.Proposal, v string) bool { return pr.Proposer == v }},
			{Name: "flag", Match: func(pr *engine.Proposal, v string) bool {
				for _, f := range flagsOf(pr) {
					if strings.Contains(strings.ToLower(f), v) {
						return true
					}
				}
				return false
			}, Known: flags},
		},
		Text: text,
	}
}

// supersededQuery is the superseded links' filter: by (who linked) and
// words of either memory.
func supersededQuery() rowQuery[supersededLink] {
	return rowQuery[supersededLink]{
		Fields: []filterField[supersededLink]{
			{Name: "by", Match: func(l supersededLink, v string) bool { return strings.EqualFold(l.Actor, v) }},
		},
		Text: func(l supersededLink) string { return l.Old.Content + " " + l.NewText },
	}
}

// curateList is what every Curate view is built on: its rows in a
// rowList and the width it draws in. A view's SetSize gives it h lines:
// the column header, the list and the detail below it.
type curateList[T any] struct {
	c     *common
	list  rowList[T]
	width int
	// dscroll is the selected row's detail scroll (J/K, the wheel below
	// the rows), back at the top when the cursor moves.
	dscroll detailScroll
}

func newCurateList[T any](c *common) curateList[T] {
	return curateList[T]{c: c, list: newRowList[T](curateListKeys())}
}

// SetSize sizes the view: h lines for the column header, the list and
// the detail.
func (v curateList[T]) SetSize(w, h int) curateList[T] {
	v.width, v.list = w, v.list.SetSize(h-1-curateDetailLines)
	return v
}

// Update moves the list (keys, a click on a row of it, the wheel) and
// reports whether msg did.
func (v curateList[T]) Update(msg tea.Msg) (curateList[T], bool) {
	var moved bool
	v.list, moved = v.list.Update(msg)
	if moved {
		v.dscroll = detailScroll{}
	}
	return v, moved
}

// setFilter filters the rows by s, parsed with q, from the first row and
// says what of s it could not use. An empty s sets no filter, so that the
// view knows from its list whether it is filtered.
func (v curateList[T]) setFilter(q rowQuery[T], s string) (curateList[T], string) {
	match, problem := q.parse(s)
	if s == "" {
		match = nil
	}
	v.list = v.list.filterBy(match).reset()
	return v, problem
}

// filterable: the current list has a "/" filter.
func (p curatePane) filterable() bool {
	return p.mode == modeQueue || p.mode == modeHistory || p.mode == modeSuperseded
}

// toggleMode is a list key's toggle: back to the queue from mode (or from
// one of also, the modes it leads to), else into mode.
func (p *curatePane) toggleMode(mode curateMode, also ...curateMode) {
	if p.mode == mode || slices.Contains(also, p.mode) {
		p.mode = modeQueue
		return
	}
	p.mode = mode
}

// enterMode shows list mode with no filter (the palette's :batch and
// :queue), so cursors index the whole list.
func (p curatePane) enterMode(mode curateMode) curatePane {
	p.mode, p.batch = mode, newBatchView(p.c)
	p.filter.input.Blur()
	p, _ = p.setFilter("")
	return p
}

// setFilter sets the filter text and parses it for the current list; the
// cursor goes back to the first row.
func (p curatePane) setFilter(s string) (curatePane, tea.Cmd) {
	p.filter.input.SetValue(s)
	p.reparse()
	return p, nil
}

func (p *curatePane) reparse() {
	s := p.filter.input.Value()
	p.queues.list = p.queues.list.filterBy(nil)
	p.hist.list = p.hist.list.filterBy(nil)
	p.sup.list = p.sup.list.filterBy(nil)
	p.filter.problem = ""
	switch p.mode {
	case modeQueue:
		p.queues, p.filter.problem = p.queues.setFilter(s)
	case modeHistory:
		p.hist.curateList, p.filter.problem = p.hist.setFilter(curateHistoryQuery(), s)
	case modeSuperseded:
		p.sup.curateList, p.filter.problem = p.sup.setFilter(supersededQuery(), s)
	}
	p.filter.input.Placeholder = p.filterHint()
}

func (p curatePane) filterHint() string {
	switch p.mode {
	case modeHistory:
		return curateHistoryQuery().hint()
	case modeSuperseded:
		return supersededQuery().hint()
	}
	return curateQueueQuery(nil, nil).hint()
}

// filterKey edits the filter: the rows follow every keystroke (they are
// all in memory); enter keeps the filter, esc clears it.
func (p curatePane) filterKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	changed, cmd := p.filter.key(msg)
	if changed {
		p.reparse()
	}
	return p, cmd
}

// filterLines is the filter bar when it shows (one line), else nothing.
func (p curatePane) filterLines() []string {
	if !p.filterable() || !p.filter.active() {
		return nil
	}
	return []string{p.filter.view(p.c, p.width)}
}

// listTop is the pane line of the current list's first row: below the
// header line, the filter bar when it shows and the column header.
func (p curatePane) listTop() int {
	return 2 + len(p.filterLines())
}

// sized gives every view its size: the pane less its header line, the
// filter bar when it shows and the status line.
func (p curatePane) sized() curatePane {
	w, h := p.width, p.height-2-len(p.filterLines())
	p.queues.curateList = p.queues.SetSize(w, h)
	p.control.curateList = p.control.SetSize(w, h)
	p.hist.curateList = p.hist.SetSize(w, h)
	p.batch.curateList = p.batch.SetSize(w, h)
	p.held.curateList = p.held.SetSize(w, h)
	p.sup.curateList = p.sup.SetSize(w, h)
	return p
}

// scrollDetail scrolls the view's detail of total lines for J/K or the
// wheel below the rows, and reports whether msg was one of them.
func (v curateList[T]) scrollDetail(msg tea.Msg, k scrollKeys, total int) (curateList[T], bool) {
	switch m := msg.(type) {
	case tea.MouseWheelMsg:
		if m.Mouse().Y < v.list.height {
			return v, false
		}
	case tea.KeyPressMsg:
	default:
		return v, false
	}
	var used bool
	v.dscroll, used = v.dscroll.update(msg, k, total, curateDetailLines)
	return v, used
}

// detailWindow is the detail's lines that show, with a position line
// when they overflow.
func (v curateList[T]) detailWindow(lines []string) []string {
	return v.dscroll.window(v.c, lines, curateDetailLines)
}

// detailBindings are J/K while the detail of total lines overflows.
func (v curateList[T]) detailBindings(k scrollKeys, total int) []key.Binding {
	return v.dscroll.bindings(k.Down, k.Up, total, curateDetailLines)
}

// updateView passes a key, a click or the wheel to the current view (a
// click's or the wheel's Y made the row of the list it is on) and reports
// whether the view used it.
func (p curatePane) updateView(msg tea.Msg) (curatePane, bool) {
	switch m := msg.(type) {
	case tea.MouseClickMsg:
		m.Y -= p.listTop()
		msg = m
	case tea.MouseWheelMsg:
		m.Y -= p.listTop()
		msg = m
	}
	var used bool
	switch p.mode {
	case modeHistory:
		p.hist.curateList, used = p.hist.Update(msg)
	case modeBatch:
		if p.batch.curateList, used = p.batch.scrollDetail(msg, p.keys.scroll, len(p.batch.detail())); !used {
			p.batch.curateList, used = p.batch.Update(msg)
		}
	case modeHeld:
		if p.held.curateList, used = p.held.scrollDetail(msg, p.keys.scroll, len(p.held.detail())); !used {
			p.held.curateList, used = p.held.Update(msg)
		}
	case modeSuperseded:
		p.sup.curateList, used = p.sup.Update(msg)
	case modeControl:
		if p.control.curateList, used = p.control.scrollDetail(msg, p.keys.scroll, len(p.control.detail())); !used {
			p.control.curateList, used = p.control.Update(msg)
		}
	default:
		p.queues, used = p.queues.Update(msg)
	}
	return p, used
}
