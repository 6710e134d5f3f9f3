package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// The Trace tab's keys: the query, the stage and item lists and the moves between them.

func (p tracePane) handleKey(msg tea.KeyPressMsg) (tracePane, tea.Cmd) {
	k := p.keys
	p.notice = ""
	if p.query.Focused() {
		switch {
		case key.Matches(msg, k.Run):
			p.query.Blur()
			p.q = engine.Query{Text: strings.TrimSpace(p.query.Value())}
			// A typed query is the curator's own, on the open database.
			p.origin, p.fx = nil, nil
			return p.run()
		case key.Matches(msg, k.Leave):
			p.query.Blur()
			return p, nil
		case key.Matches(msg, editorKey()):
			cmd, err := editInEditor(p.query.Value(), editQuery)
			if err != nil {
				p.err = err.Error()
			}
			return p, cmd
		}
		var cmd tea.Cmd
		p.query, cmd = p.query.Update(msg)
		return p, cmd
	}
	if p.atInput.Focused() {
		switch {
		case key.Matches(msg, k.Run):
			o, err := parseOverride(p.atInput.Value(), p.c.now())
			if err != nil {
				p.err = err.Error()
				return p, nil
			}
			p.atInput.Blur()
			p.err = ""
			p.override = o
			return p.run()
		case key.Matches(msg, k.Leave):
			p.atInput.Blur()
			return p, nil
		}
		var cmd tea.Cmd
		p.atInput, cmd = p.atInput.Update(msg)
		return p, cmd
	}
	if p.picker.open {
		var picked *engine.StoredTrace
		if p.picker, picked = p.picker.Update(msg); picked != nil {
			return p.openStored(picked)
		}
		return p, nil
	}
	if p.mark != nil {
		return p.handleMarkKey(msg)
	}
	if p.itemOpen {
		return p.handleOpenItemKey(msg)
	}
	switch {
	case key.Matches(msg, k.OpenItem) && p.focus == focusItems && !p.split && !p.prompt && len(p.stageItems()) > 0:
		p.itemOpen, p.openScroll = true, detailScroll{}
		return p, nil
	case key.Matches(msg, k.Mark):
		return p.startMarking(), nil
	case key.Matches(msg, k.Query):
		return p, p.query.Focus()
	case key.Matches(msg, k.TypeTime):
		p.atInput.SetValue("")
		return p, p.atInput.Focus()
	case key.Matches(msg, k.Later):
		p.override = p.override.next(p.c.now())
		return p.run()
	case key.Matches(msg, k.Earlier):
		p.override = p.override.prev(p.c.now())
		return p.run()
	case key.Matches(msg, k.Split) && p.trace != nil:
		p.split = !p.split
		p.itemOpen = false
		if p.pol != nil {
			// Leaving the policies' split: s again compares two times.
			p.pol, p.cmp = nil, nil
		}
		if p.split && (p.cmp == nil || p.source != "") && !p.override.isNow() {
			return p.run()
		}
		return p, nil
	case p.split && key.Matches(msg, k.CloseSplit):
		p.split = false
		return p, nil
	case p.prompt && key.Matches(msg, k.ClosePrompt):
		p.prompt = false
		return p, nil
	case p.split && key.Matches(msg, k.splitScroll.Down, k.splitScroll.Up, k.splitScroll.PageDown, k.splitScroll.PageUp):
		p.splitScroll, _ = p.splitScroll.update(msg, k.splitScroll, len(p.splitView()), p.bodyRows())
		return p, nil
	case key.Matches(msg, k.Prompt) && !p.split:
		// In the split view the right column is the comparison: p would
		// only flip what shows after it (and the footer does not offer it).
		p.prompt = !p.prompt
		return p, nil
	case key.Matches(msg, k.Open):
		return p.openPicker()
	case key.Matches(msg, k.Rerun):
		return p.run()
	case key.Matches(msg, k.Stages):
		p.focus = focusStages
		return p, nil
	case key.Matches(msg, k.Items):
		p.focus = focusItems
		return p, nil
	}
	return p.move(msg), nil
}

// move handles the list keys in the focused column.
func (p tracePane) move(msg tea.KeyPressMsg) tracePane {
	k := p.keys.list
	if p.focus == focusStages {
		last := len(engine.StageNames) - 1
		switch {
		case key.Matches(msg, k.Up):
			p.stage = max(0, p.stage-1)
		case key.Matches(msg, k.Down):
			p.stage = min(last, p.stage+1)
		case key.Matches(msg, k.Top, k.PageUp):
			p.stage = 0
		case key.Matches(msg, k.Bottom, k.PageDown):
			p.stage = last
		default:
			return p
		}
		p.item, p.itemTop = 0, 0
		return p
	}
	if p.prompt {
		if key.Matches(msg, k.Top) {
			p.promptScroll = detailScroll{}
			return p
		}
		p.promptScroll, _ = p.promptScroll.update(msg, lineScrollKeys(k), len(p.promptLines()), p.bodyRows()-1)
		return p
	}
	page := max(1, p.itemRows()/traceItemLines)
	switch {
	case key.Matches(msg, k.Up):
		p.item--
	case key.Matches(msg, k.Down):
		p.item++
	case key.Matches(msg, k.PageUp):
		p.item -= page
	case key.Matches(msg, k.PageDown):
		p.item += page
	case key.Matches(msg, k.Top):
		p.item = 0
	case key.Matches(msg, k.Bottom):
		p.item = 1 << 30
	}
	return p.clampItems()
}

// clampItems keeps the item cursor on an item of the selected stage and
// scrolls it into view.
func (p tracePane) clampItems() tracePane {
	n := len(p.stageItems())
	p.item = max(0, min(p.item, n-1))
	page := max(1, p.itemRows()/traceItemLines)
	if p.item < p.itemTop {
		p.itemTop = p.item
	}
	if p.item >= p.itemTop+page {
		p.itemTop = p.item - page + 1
	}
	p.itemTop = max(0, min(p.itemTop, n-page))
	return p
}

func (p tracePane) stageItems() []engine.TraceItem {
	if p.trace == nil || p.stage >= len(p.trace.Stages) {
		return nil
	}
	return p.trace.Stages[p.stage].Items
}
