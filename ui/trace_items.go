package ui

// The right column of the Trace tab: the selected stage's items, the final
// prompt, and the "now vs later" split view.

import (
	"fmt"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/recall"
)

// itemsView lists the selected stage's items: kept ones first (✓), then the
// dropped ones (✗) with the reason, each with its numbers grouped as
// scores, inputs and lengths. A recognised item (forgotten in free recall,
// kept because the query cued it) is marked "r".
func (p tracePane) itemsView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	s := p.trace.Stages[p.stage]
	head := fmt.Sprintf("%d %s · in %d · out %d · %d dropped", p.stage, s.Name, s.In, s.Out, droppedCount(s))
	if p.stagesFolded() {
		head = "← stages · " + head
	}
	head += " · enter opens an item"
	out := []string{st.Detail.Heading.Render(safetext.Truncate(head, rw))}
	if len(s.Items) == 0 {
		msg := "no memories at this stage"
		if s.Name == "preprocess" {
			msg = "preprocess works on the query words: see its notes (kept terms, dropped words)"
		}
		return append(out, st.App.Muted.Render(msg))
	}
	cols := traceItemColumns(rw)
	out = append(out, st.Table.Header.Render(textable.Header(cols)))
	for i := p.itemTop; i < len(s.Items) && len(out) < n; i++ {
		it := s.Items[i]
		row := textable.Row(cols, []string{itemMark(it), fmt.Sprint(it.ID), it.Key, itemType(it), it.Text})
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

// traceItemColumns are the item table's columns in rw cells: the mark, the
// id, the key, the type (with the channel) and the text, which takes the rest.
func traceItemColumns(rw int) []textable.Column {
	return textable.Fit([]textable.Column{{Title: "", Width: 1}, {Title: "ID", Width: 5, Right: true}, {Title: "KEY", Width: 8, Drop: 1},
		{Title: "TYPE", Width: 10, Min: 6, Drop: 2}, {Title: "TEXT"}}, rw, textable.MinText)
}

// itemMark is ✓ for a kept item, ✗ for a dropped one, r for a kept item
// the query's cue recognised although it is forgotten in free recall, s for
// a superseded one (a former fact: dropped as superseded, or kept because
// the query asks about the past).
func itemMark(it engine.TraceItem) string {
	switch {
	case it.Superseded, it.DropKind == engine.DropSuperseded:
		return "s"
	case it.Dropped != "":
		return "✗"
	case it.Recognised:
		return "r"
	}
	return "✓"
}

func itemType(it engine.TraceItem) string {
	typ := it.Type
	if it.Channel != "" && it.Channel != recall.ChannelSemantic {
		typ += "/" + it.Channel
	}
	return typ
}

// scoreGroup names the group a number of a trace item belongs to: scores
// the stages compute (higher ranks higher, except redundancy, where higher
// means more like an item already chosen), inputs they read off the memory,
// and lengths.
func scoreGroup(name string) string {
	switch name {
	case "importance", "decay", "boost", "retention":
		return "inputs"
	case "line_chars":
		return "lengths"
	}
	if strings.HasSuffix(name, "_chars") || strings.HasSuffix(name, "_len") {
		return "lengths"
	}
	return "scores"
}

// scoreGroups are the groups in the order they are shown.
func scoreGroups() []string { return []string{"scores", "inputs", "lengths"} }

// scoreParts names every number of an item with its value, grouped (scores,
// inputs, lengths) and in stage order within a group; the first part of a
// group carries the group's name.
func scoreParts(scores map[string]float64) []string {
	names := make([]string, 0, len(scores))
	seen := map[string]bool{}
	for _, k := range scoreOrder() {
		if _, ok := scores[k]; ok {
			names = append(names, k)
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
	names = append(names, rest...)
	var parts []string
	for _, g := range scoreGroups() {
		first := true
		for _, k := range names {
			if scoreGroup(k) != g {
				continue
			}
			part := fmt.Sprintf("%s %s", k, formatScore(scores[k]))
			if first {
				part = g + ": " + part
				first = false
			}
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		return []string{"no scores yet"}
	}
	return parts
}

// wrapParts joins parts with sep into lines of at most width cells,
// breaking between parts (a part wider than a line is wrapped on its own,
// at word boundaries);
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
		if safetext.Width(cur) > width {
			wrapped := textable.Wrap(cur, width)
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = endEllipsis(lines[maxLines-1], width)
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
	k := p.keys.list
	return append(out, p.promptScroll.windowKeys(p.c, p.promptLines(), n-1, k.Down.Help().Key, k.Up.Help().Key)...)
}

// promptLines is the final prompt wrapped to the right column.
func (p tracePane) promptLines() []string {
	if p.trace == nil {
		return nil
	}
	return wrapText(p.trace.Prompt, p.rightWidth(), 0)
}
