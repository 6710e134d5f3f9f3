package ui

import (
	"strings"

	"memtrace/internal/safetext"
)

// column is one column of a text table. Cells are sanitised and padded to
// Width display cells, so Korean and English rows line up.
type column struct {
	Title string
	Width int
	Right bool // right-aligned (numbers)
}

// layoutColumns gives the last column what is left of total after the
// others and their one-cell gaps (at least min cells).
func layoutColumns(cols []column, total, minLast int) []column {
	out := append([]column(nil), cols...)
	used := 0
	for _, c := range out[:len(out)-1] {
		used += c.Width + 1
	}
	out[len(out)-1].Width = max(minLast, total-used)
	return out
}

// tableRow renders cells under cols as one line of exactly the columns'
// total width.
func tableRow(cols []column, cells []string) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
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

func tableHeader(cols []column) string {
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.Title
	}
	return tableRow(cols, titles)
}

// wrapText sanitises s and breaks it into lines of at most width cells,
// keeping the text's own line breaks; at most maxLines lines, the last one
// ending in "…" when text was left out.
func wrapText(s string, width, maxLines int) []string {
	s = strings.ReplaceAll(safetext.Sanitize(s), "\t", " ")
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		for {
			if safetext.Width(para) <= width {
				lines = append(lines, para)
				break
			}
			cut := wordCut(para, width)
			lines = append(lines, strings.TrimRight(para[:cut], " "))
			para = para[cut:]
		}
	}
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
	return line[:cutAt(line, max(1, width-1))] + safetext.Ellipsis
}

// wordCut is where a line of at most width cells of s ends: after the last
// space that fits (a word boundary), or mid-word when one word is wider
// than the line.
func wordCut(s string, width int) int {
	cut := cutAt(s, width)
	if cut >= len(s) {
		return cut
	}
	if s[cut] == ' ' {
		return cut + 1
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > 0 {
		return i + 1
	}
	return cut
}

// cutAt returns the byte index where the first width cells of s end,
// never splitting a rune and always advancing at least one rune.
func cutAt(s string, width int) int {
	w := 0
	for i, r := range s {
		rw := safetext.Width(string(r))
		if w+rw > width && i > 0 {
			return i
		}
		w += rw
	}
	return len(s)
}
