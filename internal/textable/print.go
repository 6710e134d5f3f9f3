package textable

import (
	"fmt"
	"io"
	"strings"

	"memtrace/internal/safetext"
)

// Table is a table printed whole (the CLI's): each column as wide as its
// widest cell, two cells apart, no line ending in spaces.
type Table struct {
	cols []Column
	rows [][]string
	// limit caps a column's width in cells (0: no cap); longer cells are
	// cut with "…".
	limit []int
}

// New starts a table with its column titles.
func New(titles ...string) *Table {
	cols := make([]Column, len(titles))
	for i, title := range titles {
		cols[i].Title = title
	}
	return &Table{cols: cols, limit: make([]int, len(titles))}
}

// Cap sets the widest a column may be, in cells.
func (t *Table) Cap(col, cells int) *Table {
	t.limit[col] = cells
	return t
}

// AlignRight right-aligns columns.
func (t *Table) AlignRight(cols ...int) *Table {
	for _, c := range cols {
		t.cols[c].Right = true
	}
	return t
}

// Add appends a row; cells are formatted with %v.
func (t *Table) Add(cells ...any) {
	row := make([]string, len(t.cols))
	for i := range row {
		if i < len(cells) {
			row[i] = fmt.Sprint(cells[i])
		}
	}
	t.rows = append(t.rows, row)
}

// Write prints the table: the titles, then the rows.
func (t *Table) Write(w io.Writer) error {
	titles := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.Title
	}
	all := append([][]string{titles}, t.rows...)
	cols := append([]Column(nil), t.cols...)
	for _, r := range all {
		for i, c := range r {
			c = safetext.SanitizeLine(c)
			if t.limit[i] > 0 {
				c = safetext.Truncate(c, t.limit[i])
			}
			r[i] = c
			cols[i].Width = max(cols[i].Width, safetext.Width(c))
		}
	}
	var b strings.Builder
	for _, r := range all {
		// The last column is padded like the others; the trim takes its
		// padding off again.
		b.WriteString(strings.TrimRight(row(cols, r, 2), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
