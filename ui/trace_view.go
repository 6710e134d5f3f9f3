package ui

import (
	"fmt"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// Layout of the Trace tab: two header lines (query, time), then the stage
// list on the left and the selected stage's items (or the prompt, or the
// split view) on the right, then the budget meter and a status line.
const (
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
	return max(1, p.height-p.headerLines()-traceFooterLines)
}

// itemRows is the number of lines for items under the stage heading.
func (p tracePane) itemRows() int {
	return max(traceItemLines, p.bodyRows()-2-traceExpandLines)
}

// traceWideWidth is the width from which the stage list stays beside the
// items; on a narrower terminal it folds away while the items have the
// focus (← brings it back), so that item text keeps its room.
const traceWideWidth = 110

// stagesFolded reports that the stage list is folded away.
func (p tracePane) stagesFolded() bool {
	return p.width < traceWideWidth && (p.focus == focusItems || p.itemOpen || p.mark != nil) && !p.picker.open && p.trace != nil
}

func (p tracePane) rightWidth() int {
	if p.stagesFolded() {
		return max(20, p.width)
	}
	return max(20, p.width-traceStagesWidth-3)
}

func (p tracePane) View() string {
	lines := []string{p.queryLine(), p.timeLine()}
	lines = append(lines, p.originLines()...)
	left := p.stagesView(p.bodyRows())
	var right []string
	switch {
	case p.picker.open:
		right = p.picker.SetSize(p.rightWidth(), p.bodyRows()).View()
	case p.mark != nil && p.trace != nil:
		right = p.markView(p.bodyRows())
	case p.trace == nil:
		right = p.hintView()
	case p.itemOpen:
		right = p.openItemView(p.bodyRows())
	case p.split:
		right = p.splitScroll.window(p.c, p.splitView(), p.bodyRows())
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
		if p.stagesFolded() {
			lines = append(lines, safetext.Truncate(r, rw))
			continue
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
	steps := make([]string, len(engine.TimeSteps()))
	for i := range engine.TimeSteps() {
		l := timeOverride{step: i}.label()
		if p.override.custom.IsZero() && i == p.override.step {
			l = "[" + l + "]"
		}
		steps[i] = l
	}
	// The split's comparison is state and stays; the key hint goes first.
	line := strings.Join(steps, " ")
	parts := []headerPart{part(s),
		{forms: []string{st.App.Muted.Render("   " + line), st.App.Muted.Render(" " + line)}, rank: 1},
		{forms: []string{st.App.Muted.Render("  ([ ] step · @ type)"), ""}}}
	if p.split && p.pol != nil {
		parts = append(parts, headerPart{forms: []string{st.App.Muted.Render(" · split: policy A vs B"), st.App.Muted.Render(" · A vs B")}, rank: 2})
	} else if p.split {
		parts = append(parts, headerPart{forms: []string{st.App.Muted.Render(" · split: now vs " + p.override.label()),
			st.App.Muted.Render(" · split vs now")}, rank: 2})
	}
	return fitHeader(p.width, parts)
}

// stagesView is the left column: the eleven stages with in/out counts and
// drops, then the selected stage's notes.
func (p tracePane) stagesView(n int) []string {
	st := p.c.styles
	cols := []textable.Column{{Title: "#", Width: 2, Right: true}, {Title: "STAGE", Width: 10}, {Title: "IN", Width: 5, Right: true},
		{Title: "OUT", Width: 5, Right: true}, {Title: "DROP", Width: 4, Right: true}}
	out := []string{st.Table.Header.Render(textable.Header(cols))}
	for i, name := range engine.StageNames {
		cells := []string{fmt.Sprint(i), name, "·", "·", ""}
		if p.trace != nil && i < len(p.trace.Stages) {
			s := p.trace.Stages[i]
			cells = []string{fmt.Sprint(i), s.Name, fmt.Sprint(s.In), fmt.Sprint(s.Out), ""}
			if d := droppedCount(s); d > 0 {
				cells[4] = fmt.Sprint(d)
			}
		}
		row := textable.Row(cols, cells)
		switch {
		case i == p.stage && p.focus == focusStages && !p.picker.open:
			row = st.Table.Selected.Render(row)
		case i == p.stage:
			row = st.Filter.Chip.Render(row)
		default:
			row = st.Table.Row.Render(row)
		}
		out = append(out, row)
	}
	if p.trace != nil && p.stage < len(p.trace.Stages) {
		if d := dropSummary(p.trace.Stages[p.stage]); len(d) > 0 {
			out = append(out, "", st.Detail.Heading.Render("dropped (drop_kind × count)"))
			for _, l := range wrapParts(d, ", ", traceStagesWidth, 0) {
				out = append(out, st.Status.Quarantined.Render(l))
			}
		}
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

func (p tracePane) hintView() []string {
	st := p.c.styles
	rw := p.rightWidth()
	var out []string
	for _, l := range []string{
		"Why did the agent recall that? Type a query: press / or i, write it, press enter.",
		"Every recall here is read-only: nothing in the store changes.",
		"",
		"[ and ] step the time override: " + stepLabels() + "; @ types a time (+45d, -2h, +1w, 2027-01-01).",
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
	text := fmt.Sprintf(" %d / %d chars (%.0f%%) · %s · %d guaranteed · k %d",
		used, budget, frac*100, wording.Count(len(p.trace.Survivors), "survivor"), p.trace.Guaranteed, p.trace.K)
	return safetext.Truncate(st.Detail.Label.Render("prompt ")+style.Render(bar)+st.Detail.Value.Render(text), p.width)
}

func (p tracePane) statusLine() string {
	st := p.c.styles
	switch {
	case p.err != "":
		return st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(p.err), p.width))
	case p.loading:
		return st.App.Status.Render("recalling (read-only)…")
	case p.notice != "":
		return st.Status.Active.Render(safetext.Truncate(safetext.SanitizeLine(p.notice), p.width))
	case p.trace == nil:
		return st.App.Status.Render("no trace yet")
	}
	s := fmt.Sprintf("stage %d %s (%d of %d)", p.stage, p.trace.Stages[p.stage].Name, p.stage+1, len(p.trace.Stages))
	if n := len(p.stageItems()); n > 0 {
		s += fmt.Sprintf(" · item %d of %d", p.item+1, n)
	}
	s += " · read-only recall at " + p.trace.At.UTC().Format("2006-01-02 15:04 UTC")
	return st.App.Status.Render(safetext.Truncate(s, p.width))
}

// dropSummary counts a stage's drops by drop kind, as `recall --trace`
// prints them ("forgotten × 3", "below_floor × 12"), most first.
func dropSummary(s engine.StageTrace) []string {
	counts := map[string]int{}
	for _, it := range s.Items {
		if it.Dropped != "" {
			counts[string(it.DropKind)]++
		}
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if counts[kinds[i]] != counts[kinds[j]] {
			return counts[kinds[i]] > counts[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	out := make([]string, len(kinds))
	for i, k := range kinds {
		if k == "" {
			k = "unknown"
		}
		out[i] = fmt.Sprintf("%s × %d", k, counts[kinds[i]])
	}
	return out
}

// openItemView is the selected item whole: its text wrapped at word
// boundaries, the drop reason in full with its drop_kind, and its numbers
// one group a line (scores, inputs, lengths).
func (p tracePane) openItemView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	items := p.stageItems()
	if p.item >= len(items) {
		return []string{st.App.Muted.Render("no item")}
	}
	it := items[p.item]
	s := p.trace.Stages[p.stage]
	head := fmt.Sprintf("item %d %s · %s · stage %d %s · esc closes · m shows it in Memories", it.ID, it.Key, itemType(it), p.stage, s.Name)
	if p.fx != nil {
		head += " (its key, in the open database)"
	}
	out := []string{st.Detail.Heading.Render(safetext.Truncate(safetext.SanitizeLine(head), rw))}
	k := p.keys.list
	return append(out, p.openScroll.windowKeys(p.c, p.openItemBody(), n-1, k.Down.Help().Key, k.Up.Help().Key)...)
}

// openItemBody is the open item's lines below its heading, the part that
// scrolls.
func (p tracePane) openItemBody() []string {
	st := p.c.styles
	rw := p.rightWidth()
	items := p.stageItems()
	if p.item >= len(items) {
		return nil
	}
	it := items[p.item]
	var body []string
	switch {
	case it.Dropped != "":
		for _, l := range wrapText(itemMark(it)+" dropped ["+string(it.DropKind)+"]: "+it.Dropped, rw, 0) {
			body = append(body, st.Status.Quarantined.Render(l))
		}
	case it.Superseded:
		body = append(body, st.Status.Quarantined.Render(safetext.Truncate("s kept as a former fact: superseded, recalled because the query asks about the past", rw)))
	case it.Recognised:
		body = append(body, st.Status.Active.Render(safetext.Truncate("r kept: recognised — forgotten in free recall, kept because the query cues it", rw)))
	default:
		body = append(body, st.Status.Active.Render("✓ kept at this stage"))
	}
	for _, l := range p.itemFacts(it) {
		for _, w := range wrapText(l, rw, 0) {
			body = append(body, st.Detail.Label.Render(w))
		}
	}
	body = append(body, "", st.Detail.Label.Render("text"))
	for _, l := range wrapText(it.Text, rw-2, 0) {
		body = append(body, "  "+st.Detail.Value.Render(l))
	}
	parts := scoreParts(it.Scores)
	body = append(body, "")
	for _, g := range scoreGroups() {
		var group []string
		for _, part := range parts {
			if strings.HasPrefix(part, g+": ") {
				group = append(group, strings.TrimPrefix(part, g+": "))
			} else if len(group) > 0 && !strings.Contains(part, ": ") {
				group = append(group, part)
			} else if len(group) > 0 {
				break
			}
		}
		if len(group) == 0 {
			continue
		}
		body = append(body, st.Detail.Label.Render(g))
		for _, l := range wrapParts(group, " · ", rw-2, 0) {
			body = append(body, "  "+st.Detail.Value.Render(l))
		}
	}
	return body
}
