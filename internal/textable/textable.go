// Package textable draws text tables whose columns line up by display
// width: a Korean character takes two terminal cells, which
// text/tabwriter and %-Ns count as one (or three, in bytes). Every cell is
// sanitised to one line, since memory text is untrusted: control sequences
// are shown, not run.
//
// The TUI lays its columns out to the screen's width (Fill, Row, Header);
// the CLI prints a table whole, its columns as wide as their widest cell
// (New, Write). Both draw their rows with the same renderer.
package textable

import (
	"slices"
	"strings"

	"memtrace/internal/safetext"
)

// Column is one column of a table. Cells are padded (or cut) to Width
// display cells.
type Column struct {
	Title string
	Width int
	Right bool // right-aligned (numbers)

	// Min and Drop say how the column gives way to the text column (Fit):
	// it is narrowed down to Min cells first (0: never narrowed), then left
	// out, lowest Drop first (0: never left out).
	Min, Drop int

	hidden bool // left out by Fit: no cell, no gap
}

// MinText is the documented minimum width of a TUI table's text column
// (CONTENT, MEMORY, TEXT, CHANGE…): at 80 columns the text a curator
// judges keeps at least this many cells. Fit narrows, then leaves out, the
// columns that describe a row (KEY, KIND, TIER, BATCH…) before the text
// column goes under it.
const MinText = 30

// Fit is Fill with the last column (the text) kept at least minText
// cells wide when the others can give way: first the columns with a Min
// are narrowed (lowest Drop first, a Drop of 0 last), then the columns
// with a Drop are left out, lowest first, until the text has minText
// cells; a narrowed column gets back what the text does not need once
// others are left out. When nothing more can give way the text takes what
// is left (at least 8 cells). Row and Header skip a left-out column and
// its gap.
func Fit(cols []Column, total, minText int) []Column {
	out := Fill(cols, total, 1)
	last := len(out) - 1
	short := func() int { return minText - (total - used(out[:last])) }
	// The columns that can give way, lowest Drop first; a column that is
	// only narrowed (Drop 0) gives last.
	order := func(c Column) int {
		if c.Drop == 0 {
			return 1 << 30
		}
		return c.Drop
	}
	byDrop := make([]int, 0, last)
	for i := range out[:last] {
		if out[i].Drop > 0 || out[i].Min > 0 {
			byDrop = append(byDrop, i)
		}
	}
	slices.SortStableFunc(byDrop, func(a, b int) int { return order(out[a]) - order(out[b]) })
	for _, i := range byDrop {
		if d := short(); d > 0 && out[i].Min > 0 && out[i].Width > out[i].Min {
			out[i].Width = max(out[i].Min, out[i].Width-d)
		}
	}
	for _, i := range byDrop {
		if short() > 0 && out[i].Drop > 0 {
			out[i].hidden = true
		}
	}
	for j := len(byDrop) - 1; j >= 0; j-- {
		i := byDrop[j]
		if d := short(); !out[i].hidden && d < 0 {
			out[i].Width = min(cols[i].Width, out[i].Width-d)
		}
	}
	out[last].Width = max(8, total-used(out[:last]))
	return out
}

// used is the cells cols and their one-cell gaps take, left-out columns
// taking none.
func used(cols []Column) int {
	n := 0
	for _, c := range cols {
		if !c.hidden {
			n += c.Width + 1
		}
	}
	return n
}

// Fill gives the last column what is left of total after the others and
// their one-cell gaps (at least minLast cells).
func Fill(cols []Column, total, minLast int) []Column {
	out := append([]Column(nil), cols...)
	used := 0
	for _, c := range out[:len(out)-1] {
		used += c.Width + 1
	}
	out[len(out)-1].Width = max(minLast, total-used)
	return out
}

// Row renders cells under cols, one cell apart, as one line of exactly
// the columns' total width.
func Row(cols []Column, cells []string) string {
	return row(cols, cells, 1)
}

// Header is the row of the columns' titles.
func Header(cols []Column) string {
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.Title
	}
	return Row(cols, titles)
}

// row renders cells under cols, gap cells apart.
func row(cols []Column, cells []string, gap int) string {
	var b strings.Builder
	first := true
	for i, c := range cols {
		if c.hidden {
			continue
		}
		if !first {
			b.WriteString(strings.Repeat(" ", gap))
		}
		first = false
		cell := ""
		if i < len(cells) {
			cell = safetext.SanitizeLine(cells[i])
		}
		if c.Right {
			b.WriteString(safetext.PadLeft(cell, c.Width))
		} else {
			b.WriteString(safetext.PadRight(cell, c.Width))
		}
	}
	return b.String()
}
