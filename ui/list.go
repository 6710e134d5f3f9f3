package ui

import (
	tea "charm.land/bubbletea/v2"

	"memtrace/internal/textable"
)

// rowList is a list that holds all its rows (the Curate views): the rows
// its filter lets through, the cursor and the scroll over them, and how
// many rows the screen shows. It moves with the same keys as the paged
// lists (listMove); a click selects the row under the pointer, the wheel
// scrolls three rows a notch and drags the cursor along. The scroll stays
// as it was left until the list moves: a move, a click or a draw fits it
// to the cursor.
type rowList[T any] struct {
	keys        listKeys
	all, rows   []T          // every row; the rows the filter lets through
	match       func(T) bool // the filter (nil: every row)
	cursor, top int
	height      int // rows on screen
}

func newRowList[T any](k listKeys) rowList[T] { return rowList[T]{keys: k, height: 1} }

// SetSize sets how many rows the screen shows.
func (l rowList[T]) SetSize(height int) rowList[T] {
	l.height = max(1, height)
	return l
}

// setRows replaces the rows; the cursor stays (clampCursor fits it).
func (l rowList[T]) setRows(all []T) rowList[T] {
	l.all = all
	l.rows = filterRows(all, l.match)
	return l
}

// filterBy sets the filter (nil: none).
func (l rowList[T]) filterBy(match func(T) bool) rowList[T] {
	l.match = match
	l.rows = filterRows(l.all, match)
	return l
}

// filtered reports whether a filter is set.
func (l rowList[T]) filtered() bool { return l.match != nil }

// reset puts the cursor and the scroll back on the first row.
func (l rowList[T]) reset() rowList[T] {
	l.cursor, l.top = 0, 0
	return l
}

// moveTo puts the cursor on row i; the scroll follows when the list draws.
func (l rowList[T]) moveTo(i int) rowList[T] {
	l.cursor = i
	return l
}

// clampCursor keeps the cursor on a row after the rows changed.
func (l rowList[T]) clampCursor() rowList[T] {
	l.cursor = max(0, min(l.cursor, len(l.rows)-1))
	return l
}

// current is the row under the cursor, if there is one.
func (l rowList[T]) current() (T, bool) {
	if l.cursor < len(l.rows) {
		return l.rows[l.cursor], true
	}
	var none T
	return none, false
}

// Update moves the list for a list key, a click (msg.Y is the row of the
// window: 0 is the first row shown) or the wheel, and reports whether msg
// was one of them.
func (l rowList[T]) Update(msg tea.Msg) (rowList[T], bool) {
	n := len(l.rows)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		c, ok := listMove(l.keys, msg, l.cursor, n, l.height)
		if ok {
			l.cursor = c
			l.clamp()
		}
		return l, ok
	case tea.MouseClickMsg:
		c := l
		c.clamp()
		y := msg.Mouse().Y
		if msg.Mouse().Button != tea.MouseLeft || y < 0 || y >= c.height || c.top+y >= n {
			return l, false
		}
		c.cursor = c.top + y
		c.clamp()
		return c, true
	case tea.MouseWheelMsg:
		// Any wheel event fits the scroll to the cursor first.
		l.clamp()
		d := 0
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			d = -3
		case tea.MouseWheelDown:
			d = 3
		default:
			return l, false
		}
		l.top = max(0, min(l.top+d, n-l.height))
		l.cursor = max(l.top, min(l.cursor, l.top+l.height-1))
		l.clamp()
		return l, true
	}
	return l, false
}

// clamp keeps the cursor on a row and in the window.
func (l *rowList[T]) clamp() {
	n := len(l.rows)
	l.cursor = max(0, min(l.cursor, n-1))
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+l.height {
		l.top = l.cursor - l.height + 1
	}
	l.top = max(0, min(l.top, n-l.height))
}

// window is the range [from, to) of rows shown.
func (l rowList[T]) window() (int, int) {
	l.clamp()
	n := len(l.rows)
	from := max(0, min(l.top, n-1))
	return from, min(n, from+l.height)
}

// rangeFrom is the rows from anchor to the cursor, in order.
func (l rowList[T]) rangeFrom(anchor int) (int, int) {
	return min(anchor, l.cursor), max(anchor, l.cursor)
}

// table draws the list under cols: the column header, the rows shown (the
// cursor's selected; cells gives a row's cells and whether it is an alert,
// drawn as an error), else empty when there are no rows; height+1 lines.
func (l rowList[T]) table(st *Styles, cols []textable.Column, cells func(i int, row T) ([]string, bool), empty string) []string {
	out := []string{st.Table.Header.Render(textable.Header(cols))}
	from, to := l.window()
	for i := from; i < to; i++ {
		cs, alert := cells(i, l.rows[i])
		row := textable.Row(cols, cs)
		switch {
		case i == l.cursor:
			row = st.Table.Selected.Render(row)
		case alert:
			row = st.App.Error.Render(row)
		}
		out = append(out, row)
	}
	if len(l.rows) == 0 && empty != "" {
		out = append(out, st.App.Muted.Render(empty))
	}
	return fill(out, l.height+1)
}

// filterRows keeps the rows that match (all of them when match is nil).
func filterRows[T any](rows []T, match func(T) bool) []T {
	if match == nil {
		return rows
	}
	out := make([]T, 0, len(rows))
	for _, r := range rows {
		if match(r) {
			out = append(out, r)
		}
	}
	return out
}
