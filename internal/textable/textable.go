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
	"strings"

	"memtrace/internal/safetext"
)

// Column is one column of a table. Cells are padded (or cut) to Width
// display cells.
type Column struct {
	Title string
	Width int
	Right bool // right-aligned (numbers)
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
	for i, c := range cols {
		if i > 0 {
			b.WriteString(strings.Repeat(" ", gap))
		}
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
