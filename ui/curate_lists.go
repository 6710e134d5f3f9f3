package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
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
			{Name: "by", Values: []string{engine.ProposerJudge, engine.ProposerHeartbeat, engine.ProposerRule, engine.ProposerCurator, curate.ProposerImport},
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

// historyStates are the states the history's state: field knows.
var historyStates = []string{"applied", "rollback", "rolled_back", "blocked", "undoable"}

// curateHistoryQuery is the batch history's filter: actor, kind (the
// batch's kind: capture, curator, apply, rollback…), state, and words of
// the batch id or its effect.
func curateHistoryQuery() rowQuery[engine.BatchInfo] {
	return rowQuery[engine.BatchInfo]{
		Fields: []filterField[engine.BatchInfo]{
			{Name: "actor", Match: func(b engine.BatchInfo, v string) bool { return strings.EqualFold(b.Actor, v) }},
			{Name: "kind", Match: func(b engine.BatchInfo, v string) bool {
				return strings.HasPrefix(strings.ToLower(b.Kind), v)
			}},
			{Name: "state", Values: historyStates, Match: func(b engine.BatchInfo, v string) bool {
				switch v {
				case "rollback":
					return b.Kind == engine.BatchRollback
				case "rolled_back":
					return b.RolledBack
				case "blocked":
					return !b.RolledBack && !b.CanRollback
				case "undoable":
					return b.CanRollback
				}
				return !b.RolledBack && b.Kind != engine.BatchRollback
			}},
		},
		Text: func(b engine.BatchInfo) string { return b.Batch + " " + b.Effect.String() },
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
	p.mode, p.changes = mode, nil
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
	p.matchProp, p.matchBatch, p.matchLink = nil, nil, nil
	p.filter.problem = ""
	switch p.mode {
	case modeQueue:
		p.matchProp, p.filter.problem = curateQueueQuery(p.subjectAndReason).parse(s)
		p.cursor, p.top, p.anchor = 0, 0, -1
	case modeHistory:
		p.matchBatch, p.filter.problem = curateHistoryQuery().parse(s)
		p.histCur, p.histTop = 0, 0
	case modeSuperseded:
		p.matchLink, p.filter.problem = supersededQuery().parse(s)
		p.supCur, p.supTop = 0, 0
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
	return p.subject(pr) + " " + curate.ShownReason(pr)
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

// history is the batch history the filter lets through.
func (p curatePane) history() []engine.BatchInfo {
	if p.matchBatch == nil {
		return p.batches
	}
	return curateHistoryQuery().filter(p.batches, p.matchBatch)
}

// listState is the current list's cursor and top, and its length.
func (p *curatePane) listState() (*int, *int, int) {
	switch p.mode {
	case modeHistory:
		return &p.histCur, &p.histTop, len(p.history())
	case modeHeld:
		return &p.heldCur, &p.heldTop, len(p.held)
	case modeSuperseded:
		return &p.supCur, &p.supTop, len(p.visibleLinks())
	case modeBatch:
		if p.changes == nil {
			return &p.histCur, &p.histTop, 0
		}
		return &p.changes.cursor, &p.changes.top, len(p.changes.lines)
	case modeControl:
		return &p.cursor, &p.top, len(p.controlItems())
	}
	return &p.cursor, &p.top, len(p.queue())
}

// navigate moves the current list's cursor when msg is a navigation key
// (every Curate list moves alike) and reports whether it was one.
func (p *curatePane) navigate(msg tea.KeyPressMsg) bool {
	if p.mode == modeBatch && p.changes != nil {
		c := *p.changes // the previous model keeps its own cursor
		p.changes = &c
	}
	cur, top, n := p.listState()
	l := rowList{*cur, *top}
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

func (p *curatePane) click(msg tea.MouseClickMsg) {
	cur, top, n := p.listState()
	l := rowList{*cur, *top}
	l.clamp(n, p.listRows())
	if l.click(msg, msg.Mouse().Y-p.listTop(), n, p.listRows()) {
		*cur, *top = l.cursor, l.top
	}
}

func (p *curatePane) wheel(msg tea.MouseWheelMsg) {
	cur, top, n := p.listState()
	l := rowList{*cur, *top}
	l.clamp(n, p.listRows())
	l.wheel(msg, n, p.listRows())
	*cur, *top = l.cursor, l.top
}

// window is the current list's rows on screen, [from, to).
func (p curatePane) window(cursor, top, n int) (int, int) {
	l := rowList{cursor, top}
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
	l := rowList{p.cursor, p.top}
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
