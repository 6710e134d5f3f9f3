package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/golden"
	"memtrace/internal/textable"
)

// probeList is the Golden tab's probe list: the rows the filter lets
// through, the cursor and the scroll over them, and how far the selected
// probe's detail is scrolled (J/K). It shares its height with that detail:
// the list gets what the longest detail leaves (listRows).
type probeList struct {
	c                      *common
	keys                   goldenKeys
	rows                   []goldenRow
	cursor, top, detailTop int
	// detailNeed is the most lines a probe's detail takes (measured again
	// when the rows or the width change).
	detailNeed    int
	width, height int // height: the lines of the list and the detail
}

func newProbeList(c *common, k goldenKeys) probeList { return probeList{c: c, keys: k} }

// SetSize gives the list and the detail w×h cells; measured fits the
// list to them.
func (l probeList) SetSize(w, h int) probeList {
	l.width, l.height = w, h
	return l
}

// measured takes the lines the longest detail needs and keeps the cursor
// on screen.
func (l probeList) measured(need int) probeList {
	l.detailNeed = need
	l.clampCursor()
	return l
}

// setRows replaces the rows, keeping the cursor on the same probe
// (measured fits the list to them).
func (l probeList) setRows(rows []goldenRow) probeList {
	selected := ""
	if l.cursor < len(l.rows) {
		selected = l.rows[l.cursor].ID
	}
	l.rows = rows
	for i, r := range rows {
		if r.ID == selected {
			l.cursor = i
		}
	}
	return l
}

// reset puts the cursor, the scroll and the detail back at the top.
func (l probeList) reset() probeList {
	l.cursor, l.top, l.detailTop = 0, 0, 0
	return l
}

// listRows is the list's height: every row when the detail keeps what its
// longest probe needs, else what is left beside that (never less than two
// fifths of the pane, nor the detail less than goldenDetailMin).
func (l probeList) listRows() int {
	avail := max(2, l.height)
	need := max(goldenDetailMin, l.detailNeed)
	rows := min(len(l.rows), avail-need)
	rows = max(rows, min(len(l.rows), avail*2/5))
	return max(1, min(rows, avail-goldenDetailMin))
}

func (l probeList) detailLines() int {
	return max(1, l.height-l.listRows())
}

// Update moves the list (the list keys, a click on a row — msg.Y is the
// row of the window —, the wheel three rows a notch); the pane scrolls the
// detail (goldenPane.scrollDetail).
func (l probeList) Update(msg tea.Msg) probeList {
	k := l.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.list.Up):
			l.moveTo(l.cursor - 1)
		case key.Matches(msg, k.list.Down):
			l.moveTo(l.cursor + 1)
		case key.Matches(msg, k.list.PageUp):
			l.moveTo(l.cursor - l.listRows())
		case key.Matches(msg, k.list.PageDown):
			l.moveTo(l.cursor + l.listRows())
		case key.Matches(msg, k.list.Top):
			l.moveTo(0)
		case key.Matches(msg, k.list.Bottom):
			l.moveTo(len(l.rows) - 1)
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			l.moveTo(l.cursor - 3)
		case tea.MouseWheelDown:
			l.moveTo(l.cursor + 3)
		}
	case tea.MouseClickMsg:
		if y := msg.Mouse().Y; y >= 0 && y < l.listRows() && l.top+y < len(l.rows) {
			l.moveTo(l.top + y)
		}
	}
	return l
}

func (l *probeList) moveTo(i int) {
	if i != l.cursor {
		l.detailTop = 0
	}
	l.cursor = i
	l.clampCursor()
}

func (l *probeList) clampCursor() {
	l.cursor = max(0, min(l.cursor, len(l.rows)-1))
	rows := l.listRows()
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+rows {
		l.top = l.cursor - rows + 1
	}
	l.top = max(0, min(l.top, len(l.rows)-rows))
}

func (l probeList) selected() (goldenRow, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return goldenRow{}, false
	}
	return l.rows[l.cursor], true
}

// nextFailure moves to the next failing probe in direction dir (1 down,
// -1 up), wrapping around, and reports whether there was one.
func (l probeList) nextFailure(dir int) (probeList, bool) {
	n := len(l.rows)
	for step := 1; step <= n; step++ {
		i := ((l.cursor+dir*step)%n + n) % n
		if l.rows[i].failing() {
			l.moveTo(i)
			return l, true
		}
	}
	return l, false
}

func (l probeList) failureCount() int {
	n := 0
	for _, r := range l.rows {
		if r.failing() {
			n++
		}
	}
	return n
}

// failureRank is the cursor's probe's place among the failing ones.
func (l probeList) failureRank() int {
	n := 0
	for j := 0; j <= l.cursor && j < len(l.rows); j++ {
		if l.rows[j].failing() {
			n++
		}
	}
	return n
}

func (l probeList) columns() []textable.Column {
	return textable.Fill([]textable.Column{
		{Title: "RESULT", Width: 7},
		{Title: "Δ", Width: 9},
		{Title: "PROBE", Width: min(34, max(12, l.width/4))},
		{Title: "SURV", Width: 4, Right: true},
		{Title: "QUERY"},
	}, l.width, 8)
}

// View is the column header and the rows on screen.
func (l probeList) View() string {
	st := l.c.styles
	cols := l.columns()
	out := []string{st.Table.Header.Render(textable.Header(cols))}
	n := l.listRows()
	for i := l.top; i < l.top+n; i++ {
		if i >= len(l.rows) {
			out = append(out, strings.Repeat(" ", l.width))
			continue
		}
		r := l.rows[i]
		surv := ""
		if r.Result != nil {
			surv = strconv.Itoa(len(r.Result.Survivors))
		}
		row := textable.Row(cols, []string{r.verdict(), r.delta(), r.ID, surv, r.Query})
		switch {
		case i == l.cursor:
			row = st.Table.Selected.Render(row)
		case r.Result != nil && !r.Result.Pass, r.Change != nil && (r.Change.Change == golden.ChangeBroke || r.Change.Change == golden.ChangeMissing):
			row = st.App.Error.Render(row)
		case r.Change != nil:
			row = st.Status.Quarantined.Render(row)
		case r.Result == nil:
			row = st.Table.Muted.Render(row)
		default:
			row = st.Table.Row.Render(row)
		}
		out = append(out, row)
	}
	return strings.Join(out, "\n")
}
