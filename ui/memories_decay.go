package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"memtrace/engine"
)

// The decay curve of the Memories detail: decay d(t) = 2^(−Δt/H) over the
// next year as a bar chart of eighth blocks, one column per time step, the
// level below which the memory is forgotten drawn as a line, and the column
// of the forecast date of forgetting marked under the axis.

// decaySpan is how far ahead the plot looks.
const decaySpan = 365 * 24 * time.Hour

// decayLabelWidth is the y-axis labels' column ("1.0 ┤").
const decayLabelWidth = 5

// decayPlot is the plot's data: one decay sample per column, taken at the
// column's start; column i covers [from + i·span/cols, from + (i+1)·span/cols).
type decayPlot struct {
	from    time.Time
	span    time.Duration
	samples []float64
	// forgetLevel is the decay below which the memory is forgotten:
	// ForgetThreshold / importance (forgotten when decay × importance <
	// ForgetThreshold). Above 1 the memory is forgotten from the start.
	forgetLevel float64
	forgetAt    time.Time
	// goneAt is the recognition horizon (engine.UnrecognisableAt): after
	// it not even a specific cue finds the memory.
	goneAt time.Time
	// forgetCol is the column whose span holds forgetAt; -1 when forgetAt
	// falls outside the plot.
	forgetCol int
}

func newDecayPlot(m engine.Memory, from time.Time, cols int, cfg engine.Config) decayPlot {
	d := decayPlot{from: from, span: decaySpan, samples: make([]float64, cols), forgetCol: -1}
	for i := range d.samples {
		d.samples[i] = engine.Decay(m, d.colTime(i), cfg)
	}
	threshold := cfg.ForgetThreshold
	if threshold == 0 {
		threshold = engine.DefaultConfig().ForgetThreshold
	}
	d.forgetLevel = math.Inf(1)
	if m.Importance > 0 {
		d.forgetLevel = threshold / math.Min(1, m.Importance)
	}
	d.forgetAt = engine.ForgetAt(m, cfg)
	d.goneAt = engine.UnrecognisableAt(m, cfg)
	d.forgetCol = d.column(d.forgetAt)
	return d
}

// colTime is the start of column i.
func (d decayPlot) colTime(i int) time.Time {
	return d.from.Add(time.Duration(float64(d.span) * float64(i) / float64(len(d.samples))))
}

// column is the column whose span holds t, or -1.
func (d decayPlot) column(t time.Time) int {
	if t.Before(d.from) || !t.Before(d.from.Add(d.span)) {
		return -1
	}
	c := int(float64(t.Sub(d.from)) / float64(d.span) * float64(len(d.samples)))
	// Rounding at a column's edge: the column is the one whose start is at
	// or before t.
	for c > 0 && d.colTime(c).After(t) {
		c--
	}
	for c+1 < len(d.samples) && !d.colTime(c+1).After(t) {
		c++
	}
	return c
}

// caption states the forecast in words.
func (d decayPlot) caption() string {
	day := func(t time.Time) string { return t.UTC().Format("2006-01-02") }
	level := fmt.Sprintf("below decay %.2f", d.forgetLevel)
	if d.forgetLevel > 1 {
		// No decay is low enough to matter: the importance alone is under
		// the threshold.
		level = "importance under the forget threshold"
	}
	gone := "unrecognisable after " + day(d.goneAt)
	if !d.goneAt.After(d.from) {
		gone = "unrecognisable since " + day(d.goneAt)
	}
	switch {
	case !d.forgetAt.After(d.from):
		return fmt.Sprintf("out of free recall since %s, %s · %s", day(d.forgetAt), gone, level)
	case d.forgetCol < 0:
		return fmt.Sprintf("drops out of free recall on %s, beyond this year, %s · %s", day(d.forgetAt), gone, level)
	}
	days := int(d.forgetAt.Sub(d.from).Hours() / 24)
	return fmt.Sprintf("drops out of free recall on %s (in %d days, ▲), %s · %s", day(d.forgetAt), days, gone, level)
}

// shortCaption is caption in fewer words, for a narrow terminal: the two
// dates, the mark of the first in the plot; the forget level is on the
// plot's axis.
func (d decayPlot) shortCaption() string {
	day := func(t time.Time) string { return t.UTC().Format("2006-01-02") }
	recall := "free recall until " + day(d.forgetAt)
	switch {
	case !d.forgetAt.After(d.from):
		recall = "out of free recall since " + day(d.forgetAt)
	case d.forgetCol >= 0:
		recall += " ▲"
	}
	if !d.goneAt.After(d.from) {
		return recall + ", unrecognisable since " + day(d.goneAt)
	}
	return recall + ", recognisable until " + day(d.goneAt)
}

var eighths = []rune(" ▁▂▃▄▅▆▇█")

// render draws rows lines of bars under a heading with the caption, then
// the axis with the forecast mark and the span's ends.
func (d decayPlot) render(st *Styles, rows int) []string {
	cols := len(d.samples)
	// The forecast in as many words as fit: the level (also on the axis)
	// goes first, then the long wording; both dates always stay.
	caption := d.caption()
	if fits := func(c string) bool { return lipgloss.Width("decay "+c) <= cols+5 }; !fits(caption) {
		if i := strings.LastIndex(caption, " · "); i > 0 && fits(caption[:i]) {
			caption = caption[:i]
		} else if i > 0 {
			caption = d.shortCaption()
		}
	}
	out := []string{st.Detail.Heading.Render("decay ") + st.Detail.Label.Render(caption)}
	levels := rows * 8
	// The forget line sits in the row holding its level.
	lineRow := -1
	if d.forgetLevel <= 1 {
		lineRow = rows - 1 - min(rows-1, int(d.forgetLevel*float64(levels))/8)
	}
	for r := 0; r < rows; r++ {
		var label string
		switch {
		case r == 0:
			label = "1.0 ┤"
		case r == lineRow:
			label = fmt.Sprintf("%.2f", d.forgetLevel)[1:] + " ┤"
		case r == rows-1:
			label = "  0 ┤"
		default:
			label = "    │"
		}
		var b strings.Builder
		b.WriteString(st.Detail.Label.Render(label))
		base := (rows - 1 - r) * 8
		for c, v := range d.samples {
			fill := min(8, max(0, int(math.Round(v*float64(levels)))-base))
			switch {
			case r == lineRow && v < d.forgetLevel:
				// The line shows where the memory is forgotten: it starts
				// in the column after the mark.
				b.WriteString(st.App.Muted.Render("┄"))
			case fill == 0:
				b.WriteByte(' ')
			case c == d.forgetCol:
				b.WriteString(st.App.Error.Render(string(eighths[fill])))
			case v < d.forgetLevel:
				b.WriteString(st.Status.Quarantined.Render(string(eighths[fill])))
			default:
				b.WriteString(st.Status.Active.Render(string(eighths[fill])))
			}
		}
		out = append(out, b.String())
	}
	axis := []rune(strings.Repeat("─", cols))
	if d.forgetCol >= 0 {
		axis[d.forgetCol] = '▲'
	}
	end := "+365d"
	line := "now  " + string(axis)
	if cols > len(end)+10 {
		line = "now  " + string(axis[:cols-len(end)]) + end
		if d.forgetCol >= cols-len(end) {
			line = "now  " + string(axis)
		}
	}
	return append(out, st.Detail.Label.Render(line))
}
