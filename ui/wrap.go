package ui

import (
	"strings"

	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// wrapText is textable.Wrap (sanitised, whole words, the text's own line
// breaks) with at most maxLines lines, the last one ending in "…" when
// text was left out.
func wrapText(s string, width, maxLines int) []string {
	lines := textable.Wrap(s, width)
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = endEllipsis(lines[maxLines-1], width)
	}
	return lines
}

// endEllipsis marks line (at most width cells) as continued: "…" after it
// when there is room, else in its last cell — never twice.
func endEllipsis(line string, width int) string {
	if safetext.Width(line)+1 <= width {
		return line + safetext.Ellipsis
	}
	return line[:textable.CutAt(line, max(1, width-1))] + safetext.Ellipsis
}

// wrappedRow is one table row whose last cell wraps whole at word
// boundaries (wrapText) under its column, the other cells blank on the
// lines after the first: a reason or a change is read whole.
func wrappedRow(cols []textable.Column, cells []string) []string {
	last := len(cols) - 1
	if len(cells) <= last {
		return []string{textable.Row(cols, cells)}
	}
	var out []string
	for i, l := range wrapText(cells[last], max(1, cols[last].Width), 0) {
		row := make([]string, len(cols))
		if i == 0 {
			copy(row, cells)
		}
		row[last] = l
		out = append(out, textable.Row(cols, row))
	}
	if len(out) == 0 {
		out = append(out, textable.Row(cols, cells))
	}
	return out
}

// labelled is text after a label, wrapped whole at word boundaries into
// lines of width cells, the later lines indented under the text.
func labelled(c *common, label, text string, width int) []string {
	st := c.styles
	indent := safetext.Width(label)
	var out []string
	for i, l := range wrapText(text, max(10, width-indent), 0) {
		if i == 0 {
			out = append(out, st.Detail.Label.Render(label)+st.Detail.Value.Render(l))
			continue
		}
		out = append(out, strings.Repeat(" ", indent)+st.Detail.Value.Render(l))
	}
	return out
}
