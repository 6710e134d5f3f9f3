package ui

import (
	"fmt"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// The Memories tab's view: the list's columns and cells, the frame and the status line.

// memoryColumns are the list's columns at width w: CONTENT keeps
// textable.MinText cells, TYPE narrowing and KEY, KIND, then TIER giving
// way (the detail shows them all).
func memoryColumns(w int) []textable.Column {
	return textable.Fit([]textable.Column{
		{Title: "ID", Width: 6, Right: true},
		{Title: "KEY", Width: 12, Drop: 1},
		{Title: "TYPE", Width: 14, Min: 10, Drop: 4},
		{Title: "KIND", Width: 7, Drop: 2},
		{Title: "TIER", Width: 4, Drop: 3},
		{Title: "STATUS", Width: 11},
		{Title: "IMP", Width: 4, Right: true},
		{Title: "CONTENT"},
	}, w, textable.MinText)
}

func memoryCells(m *engine.Memory) []string {
	return []string{
		fmt.Sprint(m.ID), m.Key, m.Type, string(m.Kind), string(m.Tier), statusCell(m),
		fmt.Sprintf("%.2f", m.Importance), m.Content,
	}
}

// supersededStatus is the STATUS cell of an active memory a newer one
// superseded: a former fact, recalled no more, although its stored status
// is still active (status:superseded filters them).
const supersededStatus = "superseded"

// statusCell is the memory's status as the list shows it: superseded for
// an active former fact, else the stored status.
func statusCell(m *engine.Memory) string {
	if m.SupersededBy != 0 && m.Status == engine.StatusActive {
		return supersededStatus
	}
	return string(m.Status)
}

func (p memoriesPane) View() string {
	st := p.c.styles
	cols := memoryColumns(p.width)
	var lines []string
	if p.input.Focused() || p.input.Value() != "" {
		lines = append(lines, p.input.View())
	} else {
		lines = append(lines, st.Filter.Label.Render("/ filter: status:… type:… kind:… tier:… text"))
	}
	lines = append(lines, st.Table.Header.Render(textable.Header(cols)))
	for i := p.list.top; i < p.list.top+p.list.visible; i++ {
		if i >= p.list.total {
			lines = append(lines, "")
			continue
		}
		m, ok := p.list.row(i)
		if !ok {
			lines = append(lines, st.Table.Muted.Render(textable.Row(cols, []string{fmt.Sprint("#", i+1), "loading…"})))
			continue
		}
		cells := memoryCells(m)
		cells[0] = p.idCell(i, m)
		row := textable.Row(cols, cells)
		switch {
		case i == p.list.cursor:
			lines = append(lines, st.Table.Selected.Render(row))
		case statusCell(m) == supersededStatus:
			// A former fact: muted, as a loading row is.
			lines = append(lines, st.Table.Muted.Render(row))
		default:
			lines = append(lines, st.Table.Row.Render(row))
		}
	}
	if p.detail {
		lines = append(lines, p.detailView(p.detailRoom())...)
	}
	lines = append(lines, p.supersedeLines()...)
	lines = append(lines, p.statusLine())
	return strings.Join(lines, "\n")
}

func (p memoriesPane) statusLine() string {
	st := p.c.styles
	if p.err != "" {
		return st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(p.err), p.width))
	}
	var parts []string
	switch {
	case !p.list.loaded:
		parts = append(parts, "loading…")
	case p.list.total == 0:
		parts = append(parts, "no memories match")
	default:
		parts = append(parts, fmt.Sprintf("%d of %d", p.list.cursor+1, p.list.total))
	}
	if n := len(p.selected); n > 0 {
		parts = append(parts, fmt.Sprintf("%d selected", n))
	}
	if p.status != "" {
		parts = append(parts, p.status)
	}
	if p.filterProblem != "" {
		parts = append([]string{p.filterProblem}, parts...)
	}
	if n := len(p.batches); n > 0 {
		parts = append(parts, fmt.Sprintf("u undoes %d curator batch(es)", n))
	}
	return st.App.Status.Render(safetext.Truncate(safetext.SanitizeLine(strings.Join(parts, " · ")), p.width))
}

// detailRoom is the lines the open detail has under the list.
func (p memoriesPane) detailRoom() int {
	return p.height - memoriesChrome - p.supersedeHeight() - p.list.visible
}
