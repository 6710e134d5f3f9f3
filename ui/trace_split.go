package ui

// The Trace tab's split view, "now vs +N days": it renders the
// comparison `memtrace compare` prints (inspector.Compare) — the same
// function, so the TUI and the CLI cannot disagree on what is forgotten.

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// splitMark is what happened to a survivor between now and later, as the
// comparison classifies it.
type splitMark int

const (
	markHeld      splitMark = iota // the same rank at both times
	markRose                       // a better rank later
	markFell                       // a worse rank later
	markNew                        // a survivor later only
	markForgotten                  // a survivor now, forgotten later
	markLeft                       // a survivor now, gone later for another reason
	markNotYet                     // a survivor now, not yet created at the other (earlier) time
)

// splitRow is one survivor of one side of the split view.
type splitRow struct {
	ID        int64
	Key, Text string
	Rank      int // 1-based position in its own side's prompt
	OtherRank int // position on the other side; 0 when absent
	Mark      splitMark
	// Recognised: forgotten in free recall at its side's time, kept
	// because the query cues it.
	Recognised bool
	// Superseded: forgotten because a newer memory superseded it by the
	// later time (the comparison's superseded_by).
	Superseded bool
}

// splitModel is a comparison laid out for the split view: each side's
// survivors in rank order with their marks, and the comparison's
// forgotten and left memories with why. NotYet are the left ones the
// other side's recall dropped as not yet created (a split back in time):
// not written then, rather than still remembered.
type splitModel struct {
	Now, Later              []splitRow
	Forgotten, Left, NotYet []inspector.Change
	RecognisedLater         int
	AtNow, AtLater          string // dates of the two sides
}

// splitOf lays c out. Every mark comes from c's classification; nothing is
// recomputed here.
func splitOf(c *inspector.Comparison) splitModel {
	mark := map[int64]splitMark{}
	change := map[int64]inspector.Change{}
	for _, g := range []struct {
		cs []inspector.Change
		m  splitMark
	}{{c.Held, markHeld}, {c.Rose, markRose}, {c.Fell, markFell}, {c.New, markNew}, {c.Forgotten, markForgotten}, {c.Left, markLeft}} {
		for _, ch := range g.cs {
			mark[ch.ID], change[ch.ID] = g.m, ch
		}
	}
	m := splitModel{Forgotten: c.Forgotten,
		AtNow: c.AtA.UTC().Format("2006-01-02"), AtLater: c.AtB.UTC().Format("2006-01-02")}
	for _, ch := range c.Left {
		if notYetCreated(ch) {
			m.NotYet = append(m.NotYet, ch)
			mark[ch.ID] = markNotYet
		} else {
			m.Left = append(m.Left, ch)
		}
	}
	for i, sv := range c.SurvivorsA {
		ch := change[sv.ID]
		m.Now = append(m.Now, splitRow{ID: sv.ID, Key: sv.Key, Text: sv.Text, Rank: i + 1, OtherRank: ch.RankB,
			Mark: mark[sv.ID], Recognised: ch.RecognisedA, Superseded: ch.SupersededBy != 0})
	}
	for i, sv := range c.SurvivorsB {
		ch := change[sv.ID]
		m.Later = append(m.Later, splitRow{ID: sv.ID, Key: sv.Key, Text: sv.Text, Rank: i + 1, OtherRank: ch.RankA,
			Mark: mark[sv.ID], Recognised: ch.RecognisedB})
		if ch.RecognisedB {
			m.RecognisedLater++
		}
	}
	return m
}

// splitView is every line of "now vs +N days" — the survivors now and
// later side by side, each marked (✗ forgotten, ✗ former when superseded, − left, not yet (written), ↑ rose, ↓ fell, + new, recognised:
// kept although out of free recall), then the survivors forgotten in
// between and those that left for another reason, with why. The view shows
// a window of them (splitScroll: J/K, pgup/pgdn, the wheel).
func (p tracePane) splitView() []string {
	st := p.c.styles
	rw := p.rightWidth()
	if p.pol == nil && p.override.isNow() {
		return []string{
			st.Detail.Heading.Render("now vs +N days"),
			st.App.Muted.Render(safetext.Truncate("the time override is now: step with ] (or type a time with @) to compare", rw)),
		}
	}
	if p.cmp == nil {
		return []string{st.App.Muted.Render("recalling now and " + p.override.label() + "…")}
	}
	m := splitOf(p.cmp)
	if p.pol != nil {
		m = m.withForgottenLater()
	}
	// Side by side when each side has room for its text; stacked otherwise.
	sideBySide := rw >= 2*splitMinSide+1
	half := rw
	if sideBySide {
		half = (rw - 1) / 2
	}
	cols := textable.Fill([]textable.Column{{Title: "", Width: 11}, {Title: "#", Width: 2, Right: true}, {Title: "ID", Width: 5, Right: true}, {Title: "TEXT"}}, half, 6)
	side := func(title string, rows []splitRow, later bool) []string {
		out := []string{st.Detail.Heading.Render(safetext.PadRight(title, half)), st.Table.Header.Render(textable.Header(cols))}
		for _, r := range rows {
			row := textable.Row(cols, []string{p.splitMark(r, later), rankCell(r.Rank), fmt.Sprint(r.ID), r.Text})
			switch r.Mark {
			case markForgotten:
				row = st.App.Error.Render(row)
			case markLeft, markFell:
				row = st.Status.Quarantined.Render(row)
			case markNotYet:
				row = st.App.Muted.Render(row)
			case markNew, markRose:
				row = st.Status.Active.Render(row)
			default:
				row = st.Table.Row.Render(row)
			}
			out = append(out, row)
		}
		if len(rows) == 0 {
			out = append(out, st.App.Muted.Render(safetext.PadRight("nothing survives", half)))
		}
		return out
	}
	leftTitle, rightTitle, by, at, note := p.splitTitles(m)
	left := side(leftTitle, m.Now, false)
	right := side(rightTitle, m.Later, true)
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
	// The split scrolls: its summaries and each row's WHY wrap whole.
	render := func(style lipgloss.Style, lines []string) {
		for _, l := range lines {
			out = append(out, style.Render(l))
		}
	}
	out = append(out, "")
	render(st.Detail.Heading, wrapText(fmt.Sprintf("forgotten %s: %d (%s)", by, len(m.Forgotten), note), rw, 0))
	if m.RecognisedLater > 0 {
		render(st.App.Muted, wrapText(fmt.Sprintf("recognised %s: %d (forgotten in free recall, kept because the query cues them)", at, m.RecognisedLater), rw, 0))
	}
	fcols := textable.Fit([]textable.Column{{Title: "ID", Width: 5, Right: true}, {Title: "KEY", Width: 8, Drop: 1}, {Title: "FORGOT", Width: 10}, {Title: "TEXT", Width: 30, Min: 16}, {Title: "WHY"}}, rw, textable.MinText)
	for _, ch := range m.Forgotten {
		render(st.App.Error, wrappedRow(fcols, []string{fmt.Sprint(ch.ID), ch.Key, ch.ForgetAt.Format("2006-01-02"), ch.Text, ch.Reason}))
	}
	if len(m.Left) > 0 {
		render(st.Detail.Heading, wrapText(fmt.Sprintf("left %s: %d (still remembered, displaced or not retrieved)", by, len(m.Left)), rw, 0))
	}
	lcols := textable.Fit([]textable.Column{{Title: "ID", Width: 5, Right: true}, {Title: "KEY", Width: 8, Drop: 1}, {Title: "TEXT", Width: 30, Min: 16}, {Title: "WHY"}}, rw, textable.MinText)
	for _, ch := range m.Left {
		render(st.Status.Quarantined, wrappedRow(lcols, []string{fmt.Sprint(ch.ID), ch.Key, ch.Text, ch.Reason}))
	}
	if len(m.NotYet) > 0 {
		render(st.Detail.Heading, wrapText(fmt.Sprintf("not yet written %s: %d (survivors now, created after that time)", at, len(m.NotYet)), rw, 0))
	}
	for _, ch := range m.NotYet {
		render(st.App.Muted, wrappedRow(lcols, []string{fmt.Sprint(ch.ID), ch.Key, ch.Text, ch.Reason}))
	}
	return out
}

// notYetCreated: the other side's recall dropped ch because it did not
// exist yet then (its temporal stage's not_yet_created).
func notYetCreated(ch inspector.Change) bool {
	return ch.DropKind == engine.DropNotYetCreated
}

// splitScrollBindings are the split view's scroll keys that would move
// it now (none when it fits).
func (p tracePane) splitScrollBindings() []key.Binding {
	k := p.keys.splitScroll
	total, n := len(p.splitView()), p.bodyRows()
	out := p.splitScroll.bindings(k.Down, k.Up, total, n)
	return append(out, p.splitScroll.bindings(k.PageDown, k.PageUp, total, n)...)
}

// markText is the mark column of the split view. later is the right side.
func markText(r splitRow, later bool) string {
	// Kept by recognition on its side (forgotten in free recall): the
	// label says so instead of the rank move.
	if r.Recognised && (r.Mark == markHeld || r.Mark == markRose || r.Mark == markFell) {
		return "recognised"
	}
	switch r.Mark {
	case markForgotten:
		if r.Superseded {
			return "✗ former"
		}
		return "✗ forgotten"
	case markLeft:
		return "− left"
	case markNotYet:
		return "not yet"
	case markNew:
		return "+ new"
	case markRose:
		if later {
			return fmt.Sprintf("↑ from %d", r.OtherRank)
		}
		return fmt.Sprintf("↑ to %d", r.OtherRank)
	case markFell:
		if later {
			return fmt.Sprintf("↓ from %d", r.OtherRank)
		}
		return fmt.Sprintf("↓ to %d", r.OtherRank)
	}
	return "="
}
