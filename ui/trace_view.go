package ui

import (
	"fmt"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/engine/safetext"
)

// Layout of the Trace tab: two header lines (query, time), then the stage
// list on the left and the selected stage's items (or the prompt, or the
// split view) on the right, then the budget meter and a status line.
const (
	traceHeaderLines = 2
	traceFooterLines = 2
	traceStagesWidth = 31
	traceItemLines   = 2  // an item takes two lines: what it is, its scores
	traceExpandLines = 3  // extra lines the selected item may wrap into
	splitMinSide     = 50 // the split view's sides go side by side from this width each
)

// scoreOrder is the order scores are listed in: the order the stages
// compute them. Names not listed follow alphabetically.
func scoreOrder() []string {
	return []string{"bm25_score", "bm25_norm_score", "cosine_score", "relevance_score", "importance",
		"decay", "boost", "final_score", "redundancy_cosine_score", "mmr_score", "line_chars"}
}

func (p tracePane) bodyRows() int {
	return max(1, p.height-traceHeaderLines-traceFooterLines)
}

// itemRows is the number of lines for items under the stage heading.
func (p tracePane) itemRows() int {
	return max(traceItemLines, p.bodyRows()-1-traceExpandLines)
}

func (p tracePane) rightWidth() int {
	return max(20, p.width-traceStagesWidth-3)
}

func (p tracePane) View() string {
	lines := []string{p.queryLine(), p.timeLine()}
	left := p.stagesView(p.bodyRows())
	var right []string
	switch {
	case p.picker:
		right = p.pickerView(p.bodyRows())
	case p.trace == nil:
		right = p.hintView()
	case p.split:
		right = p.splitView(p.bodyRows())
	case p.prompt:
		right = p.promptView(p.bodyRows())
	default:
		right = p.itemsView(p.bodyRows())
	}
	sep := p.c.styles.Tabs.Gap.Render("│")
	rw := p.rightWidth()
	for i := 0; i < p.bodyRows(); i++ {
		r := ""
		if i < len(right) {
			r = right[i]
		}
		lines = append(lines, left[i]+" "+sep+" "+safetext.Truncate(r, rw))
	}
	lines = append(lines, p.meterLine(), p.statusLine())
	return strings.Join(lines, "\n")
}

func (p tracePane) queryLine() string {
	st := p.c.styles
	if p.query.Focused() {
		return p.query.View()
	}
	if v := p.query.Value(); v != "" {
		s := st.Detail.Label.Render("query › ") + st.Detail.Value.Render(safetext.Truncate(safetext.SanitizeLine(v), p.width/2)) +
			st.App.Muted.Render("   (/ to edit)")
		if p.source != "" {
			s += st.Filter.Chip.Render("   " + safetext.SanitizeLine(p.source))
		}
		return safetext.Truncate(s, p.width)
	}
	return st.App.Muted.Render("query › press / or i to type a query")
}

func (p tracePane) timeLine() string {
	st := p.c.styles
	if p.atInput.Focused() {
		return p.atInput.View()
	}
	now := p.c.now()
	at := p.override.at(now)
	s := st.Detail.Label.Render("at ") + st.Filter.Chip.Render(p.override.label()) +
		st.Detail.Value.Render(" → "+at.Format("2006-01-02 15:04 MST"))
	steps := make([]string, len(timeSteps()))
	for i := range timeSteps() {
		l := timeOverride{step: i}.label()
		if p.override.custom.IsZero() && i == p.override.step {
			l = "[" + l + "]"
		}
		steps[i] = l
	}
	s += st.App.Muted.Render("   " + strings.Join(steps, " ") + "  ([ ] step · @ type)")
	if p.split {
		s += st.App.Muted.Render(" · split: now vs " + p.override.label())
	}
	return safetext.Truncate(s, p.width)
}

// stagesView is the left column: the eleven stages with in/out counts and
// drops, then the selected stage's notes.
func (p tracePane) stagesView(n int) []string {
	st := p.c.styles
	cols := []column{{Title: "#", Width: 2, Right: true}, {Title: "STAGE", Width: 10}, {Title: "IN", Width: 5, Right: true},
		{Title: "OUT", Width: 5, Right: true}, {Title: "DROP", Width: 4, Right: true}}
	out := []string{st.Table.Header.Render(tableHeader(cols))}
	for i, name := range engine.StageNames {
		cells := []string{fmt.Sprint(i), name, "·", "·", ""}
		if p.trace != nil && i < len(p.trace.Stages) {
			s := p.trace.Stages[i]
			cells = []string{fmt.Sprint(i), s.Name, fmt.Sprint(s.In), fmt.Sprint(s.Out), ""}
			if d := droppedCount(s); d > 0 {
				cells[4] = fmt.Sprint(d)
			}
		}
		row := tableRow(cols, cells)
		switch {
		case i == p.stage && p.focus == focusStages && !p.picker:
			row = st.Table.Selected.Render(row)
		case i == p.stage:
			row = st.Filter.Chip.Render(row)
		default:
			row = st.Table.Row.Render(row)
		}
		out = append(out, row)
	}
	if p.trace != nil && p.stage < len(p.trace.Stages) {
		out = append(out, "", st.Detail.Heading.Render("notes"))
		for _, l := range stageNotes(p.trace.Stages[p.stage], traceStagesWidth) {
			out = append(out, st.Detail.Label.Render(l))
		}
	}
	return fitWidth(fill(out, n), traceStagesWidth)
}

// fitWidth pads or cuts every line to exactly w cells.
func fitWidth(lines []string, w int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = safetext.PadRight(l, w)
	}
	return out
}

func droppedCount(s engine.StageTrace) int {
	n := 0
	for _, it := range s.Items {
		if it.Dropped != "" {
			n++
		}
	}
	return n
}

// stageNotes wraps a stage's notes (formula, thresholds, the time it aged
// memories to), one "key: value" each, skipping the multi-line ones (the
// prompt block before the budget, shown by the prompt view).
func stageNotes(s engine.StageTrace, w int) []string {
	keys := make([]string, 0, len(s.Notes))
	for k, v := range s.Notes {
		if !strings.Contains(v, "\n") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, wrapParts(strings.Fields(k+": "+s.Notes[k]), " ", w, 3)...)
	}
	return out
}

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
			detail = append([]string{"dropped: " + it.Dropped}, detail...)
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

// splitView is "now vs +N days": the survivors now and later side by side,
// each marked (✗ forgotten, − left, ↑ rose, ↓ fell, + new, recognised:
// kept although out of free recall), then every
// memory forgotten in between.
func (p tracePane) splitView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	if p.nowTr == nil {
		return []string{st.App.Muted.Render("recalling now and " + p.override.label() + "…")}
	}
	if p.override.isNow() {
		return []string{
			st.Detail.Heading.Render("now vs +N days"),
			st.App.Muted.Render(safetext.Truncate("the time override is now: step with ] (or type a time with @) to compare", rw)),
		}
	}
	cmp := compareTraces(p.nowTr, p.trace)
	// Side by side when each side has room for its text; stacked otherwise.
	sideBySide := rw >= 2*splitMinSide+1
	half := rw
	if sideBySide {
		half = (rw - 1) / 2
	}
	cols := layoutColumns([]column{{Title: "", Width: 11}, {Title: "#", Width: 2, Right: true}, {Title: "ID", Width: 5, Right: true}, {Title: "TEXT"}}, half, 6)
	side := func(title string, items []comparedItem, later bool) []string {
		out := []string{st.Detail.Heading.Render(safetext.PadRight(title, half)), st.Table.Header.Render(tableHeader(cols))}
		for _, it := range items {
			row := tableRow(cols, []string{markText(it, later), fmt.Sprint(it.Rank), fmt.Sprint(it.ID), it.Text})
			switch it.Mark {
			case markForgotten:
				row = st.App.Error.Render(row)
			case markLeft, markFell:
				row = st.Status.Quarantined.Render(row)
			case markNew, markRose:
				row = st.Status.Active.Render(row)
			default:
				row = st.Table.Row.Render(row)
			}
			out = append(out, row)
		}
		if len(items) == 0 {
			out = append(out, st.App.Muted.Render(safetext.PadRight("nothing survives", half)))
		}
		return out
	}
	now := p.ranAt
	left := side("now · "+now.UTC().Format("2006-01-02"), cmp.Now, false)
	right := side(p.override.label()+" · "+p.override.at(now).Format("2006-01-02"), cmp.Later, true)
	var out []string
	if sideBySide {
		for i := 0; i < max(len(left), len(right)); i++ {
			l, r := strings.Repeat(" ", half), ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			out = append(out, l+" "+r)
		}
	} else {
		out = append(append(left, ""), right...)
	}
	out = append(out, "", st.Detail.Heading.Render(fmt.Sprintf("forgotten by %s: %d (kept by the temporal stage now, forgotten then)", p.override.label(), len(cmp.Forgotten))))
	if cmp.Recognised > 0 {
		out = append(out, st.App.Muted.Render(safetext.Truncate(fmt.Sprintf("recognised at %s: %d (forgotten in free recall, kept because the query cues them)", p.override.label(), cmp.Recognised), rw)))
	}
	fcols := layoutColumns([]column{{Title: "ID", Width: 5, Right: true}, {Title: "KEY", Width: 8}, {Title: "TEXT", Width: 30}, {Title: "WHY"}}, rw, 10)
	for _, it := range cmp.Forgotten {
		if len(out) >= n {
			break
		}
		out = append(out, st.App.Error.Render(tableRow(fcols, []string{fmt.Sprint(it.ID), it.Key, it.Text, it.Reason})))
	}
	return out
}

// markText is the mark column of the split view. later is the right side.
func markText(it comparedItem, later bool) string {
	// Kept by recognition on its side (forgotten in free recall): the
	// label says so instead of the rank move.
	if it.Recognised && (it.Mark == markSame || it.Mark == markRose || it.Mark == markFell) {
		return "recognised"
	}
	switch it.Mark {
	case markForgotten:
		return "✗ forgotten"
	case markLeft:
		return "− left"
	case markNew:
		return "+ new"
	case markRose:
		if later {
			return fmt.Sprintf("↑ from %d", it.OtherRank)
		}
		return fmt.Sprintf("↑ to %d", it.OtherRank)
	case markFell:
		if later {
			return fmt.Sprintf("↓ from %d", it.OtherRank)
		}
		return fmt.Sprintf("↓ to %d", it.OtherRank)
	}
	return "="
}

func (p tracePane) pickerView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	out := []string{st.Detail.Heading.Render(safetext.Truncate("stored traces — recalls an agent made (MCP), newest first · enter opens · esc closes", rw))}
	if p.storedLoading {
		return append(out, st.App.Muted.Render("loading…"))
	}
	if len(p.stored) == 0 {
		return append(out, st.App.Muted.Render(safetext.Truncate("no stored traces yet: recalls made through `memtrace mcp` (memory_recall) are kept here", rw)))
	}
	cols := layoutColumns([]column{{Title: "#", Width: 5, Right: true}, {Title: "SOURCE", Width: 6}, {Title: "WHEN", Width: 16}, {Title: "SESSION", Width: 8}, {Title: "QUERY"}}, rw, 10)
	out = append(out, st.Table.Header.Render(tableHeader(cols)))
	start := max(0, min(p.storedCursor-(n-3), len(p.stored)-(n-2)))
	for i := start; i < len(p.stored) && len(out) < n; i++ {
		t := p.stored[i]
		row := tableRow(cols, []string{fmt.Sprint(t.ID), t.Source, t.CreatedAt.UTC().Format("2006-01-02 15:04"), t.Session, t.Query})
		if i == p.storedCursor {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	return out
}

func (p tracePane) hintView() []string {
	st := p.c.styles
	rw := p.rightWidth()
	var out []string
	for _, l := range []string{
		"Why did the agent recall that? Type a query: press / or i, write it, press enter.",
		"Every recall here is read-only: nothing in the store changes.",
		"",
		"[ and ] step the time override: now → +1d → +7d → +30d → +90d → +365d; @ types a date (+45d, 2027-01-01).",
		"s puts the recall now next to the recall at the override: what is forgotten, what rose, what fell.",
		"o opens a stored trace: the recalls an agent made through MCP.",
		"←/→ switch between the stages and their items; p shows the final prompt.",
	} {
		if l == "" {
			out = append(out, "")
		}
		for _, w := range wrapParts(strings.Fields(l), " ", rw, 0) {
			out = append(out, st.App.Muted.Render(w))
		}
	}
	return out
}

// meterLine is the budget meter: characters of the final prompt against the
// budget.
func (p tracePane) meterLine() string {
	st := p.c.styles
	if p.trace == nil {
		return st.App.Muted.Render("prompt —")
	}
	used, budget := p.trace.PromptChars, p.trace.Budget
	frac := 0.0
	if budget > 0 {
		frac = min(1, float64(used)/float64(budget))
	}
	const barWidth = 20
	full := int(frac*barWidth + 0.5)
	bar := strings.Repeat("█", full) + strings.Repeat("░", barWidth-full)
	style := st.Status.Active
	if frac > 0.9 {
		style = st.Status.Quarantined
	}
	text := fmt.Sprintf(" %d / %d chars (%.0f%%) · %d survivors · %d guaranteed · k %d",
		used, budget, frac*100, len(p.trace.Survivors), p.trace.Guaranteed, p.trace.K)
	return safetext.Truncate(st.Detail.Label.Render("prompt ")+style.Render(bar)+st.Detail.Value.Render(text), p.width)
}

func (p tracePane) statusLine() string {
	st := p.c.styles
	switch {
	case p.err != "":
		return st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(p.err), p.width))
	case p.loading:
		return st.App.Status.Render("recalling (read-only)…")
	case p.trace == nil:
		return st.App.Status.Render("no trace yet")
	}
	s := fmt.Sprintf("stage %d/%d %s", p.stage, len(p.trace.Stages)-1, p.trace.Stages[p.stage].Name)
	if n := len(p.stageItems()); n > 0 {
		s += fmt.Sprintf(" · item %d of %d", p.item+1, n)
	}
	s += " · read-only recall at " + p.trace.At.UTC().Format("2006-01-02 15:04 UTC")
	return st.App.Status.Render(safetext.Truncate(s, p.width))
}
