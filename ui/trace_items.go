package ui

// The right column of the Trace tab: the selected stage's items, the final
// prompt, and the "now vs later" split view.

import (
	"fmt"
	"sort"

	"memtrace/engine"
	"memtrace/engine/safetext"
)

// itemsView lists the selected stage's items: kept ones first (✓), then the
// dropped ones (✗) with the reason, each with every score by its name.
func (p tracePane) itemsView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	s := p.trace.Stages[p.stage]
	head := fmt.Sprintf("%d %s · in %d · out %d · %d dropped · scores: higher is better, *_distance: lower is better",
		p.stage, s.Name, s.In, s.Out, droppedCount(s))
	out := []string{st.Detail.Heading.Render(safetext.Truncate(head, rw))}
	if len(s.Items) == 0 {
		msg := "no memories at this stage"
		if s.Name == "preprocess" {
			msg = "preprocess works on the query words: see its notes (kept terms, dropped words)"
		}
		return append(out, st.App.Muted.Render(msg))
	}
	cols := layoutColumns([]column{{Title: "", Width: 1}, {Title: "ID", Width: 5, Right: true}, {Title: "KEY", Width: 8},
		{Title: "TYPE", Width: 10}, {Title: "TEXT"}}, rw, 10)
	for i := p.itemTop; i < len(s.Items) && len(out) < n; i++ {
		it := s.Items[i]
		mark := "✓"
		if it.Dropped != "" {
			mark = "✗"
		}
		typ := it.Type
		if it.Channel != "" && it.Channel != engine.ChannelSemantic {
			typ += "/" + it.Channel
		}
		row := tableRow(cols, []string{mark, fmt.Sprint(it.ID), it.Key, typ, it.Text})
		selected := i == p.item && p.focus == focusItems
		switch {
		case selected:
			row = st.Table.Selected.Render(row)
		case it.Dropped != "":
			row = st.Table.Muted.Render(row)
		default:
			row = st.Table.Row.Render(row)
		}
		out = append(out, row)
		detail := scoreParts(it.Scores)
		if it.Dropped != "" {
			// The kind first: it is what `recall --trace` counts and what
			// scripts read (drop_kind); then the reason in words.
			detail = append([]string{"dropped [" + string(it.DropKind) + "]: " + it.Dropped}, detail...)
		}
		maxLines := 1
		if i == p.item {
			maxLines = 1 + traceExpandLines
		}
		for _, l := range wrapParts(detail, " · ", rw-2, maxLines) {
			style := st.Detail.Label
			if it.Dropped != "" {
				style = st.Status.Quarantined
			}
			out = append(out, "  "+style.Render(l))
		}
	}
	return out
}

// scoreParts names every score of an item with its value, in stage order.
func scoreParts(scores map[string]float64) []string {
	seen := map[string]bool{}
	var parts []string
	for _, k := range scoreOrder() {
		if v, ok := scores[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %s", k, formatScore(v)))
			seen[k] = true
		}
	}
	var rest []string
	for k := range scores {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s %s", k, formatScore(scores[k])))
	}
	if len(parts) == 0 {
		return []string{"no scores yet"}
	}
	return parts
}

// wrapParts joins parts with sep into lines of at most width cells,
// breaking between parts (a part wider than a line is wrapped on its own);
// at most maxLines lines, the last ending in "…" when parts were left out.
func wrapParts(parts []string, sep string, width, maxLines int) []string {
	var lines []string
	cur := ""
	for _, part := range parts {
		part = safetext.SanitizeLine(part)
		switch {
		case cur == "":
			cur = part
		case safetext.Width(cur+sep+part) <= width:
			cur += sep + part
		default:
			lines = append(lines, cur)
			cur = part
		}
		for safetext.Width(cur) > width {
			cut := cutAt(cur, width)
			lines = append(lines, cur[:cut])
			cur = cur[cut:]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = safetext.Truncate(lines[maxLines-1], max(0, width-1)) + safetext.Ellipsis
	}
	return lines
}

func formatScore(v float64) string {
	if v == float64(int64(v)) && v > -1e9 && v < 1e9 {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%.3f", v)
}

// promptView shows the final prompt exactly as the agent receives it.
func (p tracePane) promptView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	out := []string{st.Detail.Heading.Render(safetext.Truncate("final prompt — what the agent receives (p: back to items)", rw))}
	if p.trace.Prompt == "" {
		return append(out, st.App.Muted.Render("the prompt is empty: nothing survived the budget"))
	}
	lines := wrapText(p.trace.Prompt, rw, 0)
	top := max(0, min(p.promptTop, len(lines)-(n-1)))
	for _, l := range lines[top:] {
		if len(out) == n {
			break
		}
		out = append(out, l)
	}
	return out
}
