package ui

import (
	"charm.land/lipgloss/v2"

	"memtrace/internal/safetext"
)

// A pane's header is one line of parts that must fit the terminal's width
// (80 columns and up). When the parts do not fit, fitHeader gives way by
// rank — the least important part first takes its shorter form, then the
// next — so that what a curator acts on (a count, a mode) stays and a key
// hint or a path goes first. Widths are display cells (Korean counts two),
// measured on the rendered, styled text.

// headerPart is one part of a header: its forms from the fullest to the
// shortest, each already styled ("" drops the part), and its rank — the
// lower, the sooner it gives way.
type headerPart struct {
	forms []string
	rank  int
}

// part is a header part of one form that never gives way.
func part(s string) headerPart { return headerPart{forms: []string{s}, rank: 1 << 30} }

// fitHeader joins the parts, each in the fullest form that lets the line
// fit width: the lowest-ranked part steps to its next form first; parts
// of the same rank take turns, the later one first. What still does not fit when every
// part is at its shortest is cut with "…".
func fitHeader(width int, parts []headerPart) string {
	at := make([]int, len(parts)) // the form each part is in
	widths := make([]int, len(parts))
	total := 0
	for i, p := range parts {
		widths[i] = safetext.Width(p.forms[0])
		total += widths[i]
	}
	for total > width {
		pick := -1
		for i, p := range parts {
			if at[i] == len(p.forms)-1 {
				continue
			}
			if pick < 0 || p.rank < parts[pick].rank || p.rank == parts[pick].rank && at[i] <= at[pick] {
				pick = i
			}
		}
		if pick < 0 {
			break
		}
		at[pick]++
		w := safetext.Width(parts[pick].forms[at[pick]])
		total += w - widths[pick]
		widths[pick] = w
	}
	line := ""
	for i, p := range parts {
		line += p.forms[at[i]]
	}
	return safetext.Truncate(line, width)
}

// fitOverlay renders body in the dialog frame, no wider than width: a body
// too wide for the terminal is wrapped inside the frame instead of being
// cut at the edge with the frame's right side.
func fitOverlay(frame lipgloss.Style, body string, width int) string {
	box := frame.Render(body)
	if width <= 0 || lipgloss.Width(box) <= width {
		return box
	}
	return frame.Width(width).Render(body)
}
