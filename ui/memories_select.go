package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"

	"memtrace/engine"
	"memtrace/internal/wording"
)

// Selection in the Memories tab, as in Curate's queues: space selects the
// row under the cursor and moves down, V marks the start of a range and a
// second V selects every row through the cursor; x, r, + and - then act on
// the selection in one transaction and one curator batch (u undoes it
// whole). The selection is by memory id, so it survives a new filter; esc
// drops a range mark first, then the selection.

type memoriesSelectKeys struct {
	Select, Range, Clear key.Binding
}

func defaultMemoriesSelectKeys() memoriesSelectKeys {
	return memoriesSelectKeys{
		Select: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select & move down")),
		Range:  key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "select range")),
		Clear:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear selection")),
	}
}

// memoriesListKeys are the Memories list keys: space selects, so it is not
// a page down here.
func memoriesListKeys() listKeys {
	k := defaultListKeys()
	k.PageDown = key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down"))
	return k
}

// toggleSelected selects or unselects the row under the cursor and moves
// down.
func (p memoriesPane) toggleSelected() memoriesPane {
	m, ok := p.list.selected()
	if !ok {
		return p
	}
	p.selected = cloneSet(p.selected)
	if p.selected[m.ID] {
		delete(p.selected, m.ID)
	} else {
		p.selected[m.ID] = true
	}
	p.list.move(1)
	return p
}

// rangeSelect is V: mark, then select from the mark through the cursor.
// Only rows in the loaded window can be selected (at most a few screens
// away); the status says how many were not.
func (p memoriesPane) rangeSelect() memoriesPane {
	if p.anchor < 0 {
		p.anchor = p.list.cursor
		p.status = "range: move, then V selects through the cursor (esc cancels)"
		return p
	}
	from, to := min(p.anchor, p.list.cursor), max(p.anchor, p.list.cursor)
	p.anchor = -1
	p.selected = cloneSet(p.selected)
	added, missing := 0, 0
	for i := from; i <= to; i++ {
		m, ok := p.list.row(i)
		if !ok {
			missing++
			continue
		}
		if !p.selected[m.ID] {
			p.selected[m.ID] = true
			added++
		}
	}
	p.status = fmt.Sprintf("selected %d more (%d selected): x, r, + and - act on them", added, len(p.selected))
	if missing > 0 {
		p.status += fmt.Sprintf("; %s not loaded: select a shorter range", wording.Count(missing, "row"))
	}
	return p
}

// inRange reports whether row i is inside the range being marked.
func (p memoriesPane) inRange(i int) bool {
	return p.anchor >= 0 && i >= min(p.anchor, p.list.cursor) && i <= max(p.anchor, p.list.cursor)
}

// targets are the memories an action applies to: the selection, or the
// row under the cursor.
func (p memoriesPane) targets() []int64 {
	if len(p.selected) > 0 {
		ids := make([]int64, 0, len(p.selected))
		for id := range p.selected {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	if m, ok := p.list.selected(); ok {
		return []int64{m.ID}
	}
	return nil
}

// idCell is the ID column: ● marks a selected memory, ┃ a row inside the
// range being marked.
func (p memoriesPane) idCell(i int, m *engine.Memory) string {
	switch {
	case p.selected[m.ID]:
		return "●" + fmt.Sprint(m.ID)
	case p.inRange(i):
		return "┃" + fmt.Sprint(m.ID)
	}
	return fmt.Sprint(m.ID)
}

func cloneSet(s map[int64]bool) map[int64]bool {
	out := make(map[int64]bool, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	return out
}
