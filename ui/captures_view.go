package ui

import (
	"fmt"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// The Captures tab drawn: the list, the per-pattern counts, the decision trail and the status line.

// captureReason is what the reason column shows: for a held capture the
// judge's validation failure from the trail (the record's reason is the
// constant needs_review, so the counts group them), else the reason.
func captureReason(c *engine.CaptureRecord) string {
	if c.Outcome == engine.OutcomeHeld {
		for _, d := range c.Trail {
			if d.Layer == engine.LayerJudge && d.Verdict == "hold" {
				return d.Reason
			}
		}
	}
	return c.Reason
}

// captureLayer is what the layer column shows: the layer that dropped the
// message, or the outcome.
func captureLayer(c *engine.CaptureRecord) string {
	if c.DroppedBy != "" {
		return c.DroppedBy
	}
	return c.Outcome
}

func (p capturesPane) View() string {
	st := p.c.styles
	if p.auditOpen {
		lines := p.auditView(p.height - 1)
		return strings.Join(append(lines, p.statusLine()), "\n")
	}
	lw, cw := p.listWidth(), p.countsWidth()
	// TEXT keeps textable.MinText cells beside the pattern counts: REASON
	// and LAYER narrow, then AT, REASON and LAYER give way (the trail
	// below shows them all).
	cols := textable.Fit([]textable.Column{
		{Title: "ID", Width: 6, Right: true},
		{Title: "AT", Width: 11, Drop: 1},
		{Title: "LAYER", Width: 10, Min: 6, Drop: 3},
		{Title: "REASON", Width: 18, Min: 8, Drop: 2},
		{Title: "TEXT"},
	}, lw, textable.MinText)

	var left []string
	if p.input.Focused() || p.input.Value() != "" {
		left = append(left, p.input.View())
	} else {
		left = append(left, st.Filter.Label.Render(safetext.Truncate(p.filterSummary(), lw)))
	}
	left = append(left, st.Table.Header.Render(textable.Header(cols)))
	for i := p.list.top; i < p.list.top+p.list.visible; i++ {
		if i >= p.list.total {
			left = append(left, strings.Repeat(" ", lw))
			continue
		}
		c, ok := p.list.row(i)
		if !ok {
			left = append(left, st.Table.Muted.Render(textable.Row(cols, []string{fmt.Sprint(i + 1), "loading…"})))
			continue
		}
		row := textable.Row(cols, []string{fmt.Sprint(c.ID), c.At.UTC().Format("01-02 15:04"), captureLayer(c), captureReason(c), c.Text})
		if i == p.list.cursor && !p.countsFocus {
			left = append(left, st.Table.Selected.Render(row))
		} else {
			left = append(left, st.Table.Row.Render(row))
		}
	}

	var lines []string
	switch {
	case lw == 0:
		lines = p.countsView(cw, len(left))
	case cw == 0:
		lines = left
	default:
		right := p.countsView(cw, len(left))
		lines = make([]string, len(left))
		for i := range left {
			lines[i] = left[i] + " " + right[i]
		}
	}
	lines = append(lines, p.trailView()...)
	lines = append(lines, p.statusLine())
	return strings.Join(lines, "\n")
}

func (p capturesPane) filterSummary() string {
	layer := captureLayers()[p.layer]
	if layer == "" {
		layer = "all"
	}
	s := "layer: " + layer + " (l)"
	if p.reason != "" {
		s += " · pattern: " + safetext.SanitizeLine(p.reason) + " (esc clears)"
	}
	if p.text != "" {
		s += " · text: " + safetext.SanitizeLine(p.text)
	}
	s += " · / text"
	if p.narrow() {
		s += " · f pattern counts"
	}
	return s
}

// countsView is the side table: how many captures each layer dropped for
// each pattern, like the seed's "HEARTBEAT n, \"I don't have access\" n".
func (p capturesPane) countsView(w, n int) []string {
	st := p.c.styles
	cols := textable.Fill([]textable.Column{{Title: "LAYER", Width: 6}, {Title: "N", Width: 6, Right: true}, {Title: "PATTERN"}}, w, 6)
	out := []string{st.Detail.Heading.Render(safetext.PadRight("dropped, per pattern", w)), st.Table.Header.Render(textable.Header(cols))}
	rows := n - len(out)
	start := max(0, min(p.countsCursor-rows+1, len(p.counts)-rows))
	for i := start; i < len(p.counts) && len(out) < n; i++ {
		rc := p.counts[i]
		row := textable.Row(cols, []string{rc.Layer, fmt.Sprint(rc.Count), rc.Reason})
		switch {
		case p.countsFocus && i == p.countsCursor:
			row = st.Table.Selected.Render(row)
		case rc.Reason == p.reason && p.reason != "":
			row = st.Filter.Chip.Render(row)
		}
		out = append(out, row)
	}
	if len(p.counts) == 0 && len(out) < n {
		msg := "no drops yet"
		if p.countsLoading {
			msg = "counting…"
		}
		out = append(out, st.App.Muted.Render(safetext.PadRight(msg, w)))
	}
	for len(out) < n {
		out = append(out, strings.Repeat(" ", w))
	}
	return out
}

// trailView is the selected capture's decision trail in its
// capturesTrailLines rows, scrolled (J/K, the wheel) when it is longer.
func (p capturesPane) trailView() []string {
	return p.trailScroll().window(p.c, p.trailLines(), capturesTrailLines)
}

// trailLines is the selected capture's full decision trail.
func (p capturesPane) trailLines() []string {
	st := p.c.styles
	c, ok := p.list.selected()
	if !ok {
		return []string{st.Detail.Heading.Render("decision trail")}
	}
	head := fmt.Sprintf("── capture %d · %s · %s/%s", c.ID, c.Outcome, c.Session, c.Role)
	if c.MemoryID != 0 {
		head += fmt.Sprintf(" · memory %d", c.MemoryID)
	}
	lines := []string{st.Detail.Heading.Render(safetext.Truncate(safetext.SanitizeLine(head), p.width))}
	for _, l := range wrapText(c.Text, max(10, p.width-2), 2) {
		lines = append(lines, "  "+l)
	}
	// A reason is read whole: it wraps at word boundaries under REASON.
	cols := textable.Fit([]textable.Column{{Title: "LAYER", Width: 10, Min: 6}, {Title: "VERDICT", Width: 10, Min: 7}, {Title: "PATTERN", Width: 20, Min: 12}, {Title: "REASON"}}, p.width, textable.MinText)
	lines = append(lines, st.Table.Header.Render(textable.Header(cols)))
	for _, d := range c.Trail {
		lines = append(lines, wrappedRow(cols, []string{d.Layer, d.Verdict, d.Pattern, d.Reason})...)
	}
	return lines
}

func (p capturesPane) statusLine() string {
	st := p.c.styles
	if p.err != "" {
		return st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(p.err), p.width))
	}
	switch {
	case !p.list.loaded:
		return st.App.Status.Render("loading…")
	case p.list.total == 0:
		return st.App.Status.Render("no captures match")
	}
	return st.App.Status.Render(fmt.Sprintf("%d of %s", p.list.cursor+1, wording.Count(p.list.total, "capture")))
}
