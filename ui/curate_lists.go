package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// The Curate tab's lists as lists: the "/" filter of the queues, the batch
// history and the superseded links (unknown fields and values said
// inline), the mouse (a click selects, the wheel scrolls) and V ranges.

// curateQueueQuery is the queues' filter: status, by (the proposer),
// flag, and words of the memory text or the reason.
func curateQueueQuery(text func(*engine.Proposal) string) rowQuery[*engine.Proposal] {
	return rowQuery[*engine.Proposal]{
		Fields: []filterField[*engine.Proposal]{
			{Name: "status", Values: []string{engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved},
				Match: func(pr *engine.Proposal, v string) bool { return pr.Status == v }},
			{Name: "by", Values: []string{engine.ProposerJudge, engine.ProposerHeartbeat, engine.ProposerRule, engine.ProposerCurator, engine.ProposerImport},
				Match: func(pr *engine.Proposal, v string) bool { return pr.Proposer == v }},
			{Name: "flag", Match: func(pr *engine.Proposal, v string) bool {
				for _, f := range flagsOf(pr) {
					if strings.Contains(strings.ToLower(f), v) {
						return true
					}
				}
				return false
			}},
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
	p.matchProp = nil
	p.hist.list = p.hist.list.filterBy(nil)
	p.sup.list = p.sup.list.filterBy(nil)
	p.filter.problem = ""
	switch p.mode {
	case modeQueue:
		p.matchProp, p.filter.problem = curateQueueQuery(p.subjectAndReason).parse(s)
		p.cursor, p.top, p.anchor = 0, 0, -1
	case modeHistory:
		p.hist, p.filter.problem = p.hist.setFilter(s)
	case modeSuperseded:
		p.sup, p.filter.problem = p.sup.setFilter(s)
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
	return curateQueueQuery(nil).hint()
}

func (p curatePane) subjectAndReason(pr *engine.Proposal) string {
	return p.subject(pr) + " " + pr.Reason
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

// listState is the current list's cursor and top, and its length.
func (p *curatePane) listState() (*int, *int, int) {
	switch p.mode {
	case modeControl:
		return &p.cursor, &p.top, len(p.controlItems())
	}
	return &p.cursor, &p.top, len(p.queue())
}

// navigate moves the current list's cursor when msg is a navigation key
// (every Curate list moves alike) and reports whether it was one.
func (p *curatePane) navigate(msg tea.KeyPressMsg) bool {
	cur, top, n := p.listState()
	l := listPos{*cur, *top}
	if !l.navigate(curateListKeys(), msg, n, p.listRows()) {
		return false
	}
	*cur, *top = l.cursor, l.top
	return true
}

// listTop is the pane line of the current list's first row: below the
// header line, the filter bar when it shows and the column header.
func (p curatePane) listTop() int {
	return 2 + len(p.filterLines())
}

// sized gives every view its size: the pane less its header line, the
// filter bar when it shows and the status line.
func (p curatePane) sized() curatePane {
	h := p.height - 2 - len(p.filterLines())
	p.hist = p.hist.SetSize(p.width, h)
	p.batch = p.batch.SetSize(p.width, h)
	p.held = p.held.SetSize(p.width, h)
	p.sup = p.sup.SetSize(p.width, h)
	return p
}

// updateView passes a list key, a click or the wheel to the current view
// (a click's Y made the row of the list it is on) and reports whether the
// list moved.
func (p curatePane) updateView(msg tea.Msg) (curatePane, bool) {
	if m, ok := msg.(tea.MouseClickMsg); ok {
		m.Y -= p.listTop()
		msg = m
	}
	var moved bool
	switch p.mode {
	case modeHistory:
		p.hist, moved = p.hist.Update(msg)
	case modeBatch:
		p.batch, moved = p.batch.Update(msg)
	case modeHeld:
		p.held, moved = p.held.Update(msg)
	case modeSuperseded:
		p.sup, moved = p.sup.Update(msg)
	default:
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			moved = p.navigate(msg)
		case tea.MouseClickMsg:
			p.click(msg)
		case tea.MouseWheelMsg:
			p.wheel(msg)
		}
	}
	return p, moved
}

func (p *curatePane) click(msg tea.MouseClickMsg) {
	cur, top, n := p.listState()
	l := listPos{*cur, *top}
	l.clamp(n, p.listRows())
	if l.click(msg, msg.Mouse().Y, n, p.listRows()) {
		*cur, *top = l.cursor, l.top
	}
}

func (p *curatePane) wheel(msg tea.MouseWheelMsg) {
	cur, top, n := p.listState()
	l := listPos{*cur, *top}
	l.clamp(n, p.listRows())
	l.wheel(msg, n, p.listRows())
	*cur, *top = l.cursor, l.top
}

// window is the current list's rows on screen, [from, to).
func (p curatePane) window(cursor, top, n int) (int, int) {
	l := listPos{cursor, top}
	l.clamp(n, p.listRows())
	return l.window(n, p.listRows())
}

// rangeKey is V: the first press marks where a range starts, the second
// selects every row from there to the cursor (lazygit's range select).
func (p curatePane) rangeKey(queue []*engine.Proposal) curatePane {
	if p.anchor < 0 || p.anchor >= len(queue) {
		p.anchor = p.cursor
		p.status = fmt.Sprintf("range from proposal %d: move, then V selects through the cursor (esc cancels)", queue[p.cursor].ID)
		return p
	}
	l := listPos{p.cursor, p.top}
	from, to := l.rangeFrom(p.anchor)
	n := 0
	for i := from; i <= to; i++ {
		if !p.selected[queue[i].ID] {
			p.selected[queue[i].ID] = true
			n++
		}
	}
	p.anchor = -1
	p.status = fmt.Sprintf("selected %d more proposal(s) (%d selected): A approves them, x rejects them", n, len(p.selected))
	return p
}

// inRange reports whether queue row i is in the range being marked.
func (p curatePane) inRange(i int) bool {
	if p.anchor < 0 {
		return false
	}
	return i >= min(p.anchor, p.cursor) && i <= max(p.anchor, p.cursor)
}

// listPos is the cursor and scroll of a Curate list that is not a view of its
// own yet (the queues, the control sample, the batch history and a batch, the
// superseded links). It moves as rowList does.
type listPos struct {
	cursor, top int
}

// clamp keeps the cursor on one of n rows and visible in a window of rows.
func (l *listPos) clamp(n, rows int) {
	rows = max(1, rows)
	l.cursor = max(0, min(l.cursor, n-1))
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+rows {
		l.top = l.cursor - rows + 1
	}
	l.top = max(0, min(l.top, n-rows))
}

// navigate moves for a list key and reports whether msg was one.
func (l *listPos) navigate(k listKeys, msg tea.KeyPressMsg, n, rows int) bool {
	c, ok := listMove(k, msg, l.cursor, n, rows)
	if ok {
		l.cursor = c
		l.clamp(n, rows)
	}
	return ok
}

// click selects row y of the window (0 is the first row shown) and
// reports whether a row was there.
func (l *listPos) click(msg tea.MouseClickMsg, y, n, rows int) bool {
	if msg.Mouse().Button != tea.MouseLeft || y < 0 || y >= rows || l.top+y >= n {
		return false
	}
	l.cursor = l.top + y
	l.clamp(n, rows)
	return true
}

// wheel scrolls the window, keeping the cursor on screen.
func (l *listPos) wheel(msg tea.MouseWheelMsg, n, rows int) {
	d := 0
	switch msg.Mouse().Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return
	}
	l.top = max(0, min(l.top+d, n-rows))
	l.cursor = max(l.top, min(l.cursor, l.top+rows-1))
	l.clamp(n, rows)
}

// window is the range [from, to) of rows shown.
func (l listPos) window(n, rows int) (int, int) {
	from := max(0, min(l.top, n-1))
	return from, min(n, from+max(1, rows))
}

// rangeFrom is the rows from anchor to the cursor, in order.
func (l listPos) rangeFrom(anchor int) (int, int) {
	return min(anchor, l.cursor), max(anchor, l.cursor)
}
