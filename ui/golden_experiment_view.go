package ui

import (
	"fmt"
	"strings"

	"memtrace/golden"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// experimentView is the whole tab while the experiment view is shown: the
// two policies, their aggregate figures side by side, the probes that
// differ (flipped first) with the selected one's moves, and the status or
// W's confirmation.
func (p goldenPane) experimentView() string {
	st := p.c.styles
	e := p.exp
	at := ""
	if e.spec.At != "" {
		at = " · at " + e.spec.At
	}
	lines := []string{st.App.Title.Render(p.line("Experiment · " + p.set.Name + at))}
	if e.x == nil || e.running && e.x == nil {
		msg := "running the set under A and B, each on a fresh fixture database built under its policy…"
		if !e.running {
			msg = "no experiment yet: r runs it"
		}
		lines = append(lines, st.App.Status.Render(p.line(msg)))
		return p.fillExperiment(lines, p.experimentStatus())
	}
	x := e.x
	lines = append(lines, st.App.Muted.Render(p.line("A = "+e.a.Name+" · B = "+e.b.Name)))
	if e.running {
		lines[1] = st.App.Status.Render(p.line("re-running A and B… (the figures below are the last run's)"))
	}
	fig := textable.Fill([]textable.Column{{Title: "", Width: 18}, {Title: "A", Width: 14, Right: true}, {Title: "B", Width: 14, Right: true}, {Title: ""}}, p.width, 0)
	row := func(name, a, b string) string { return p.line(textable.Row(fig, []string{name, a, b, ""})) }
	lines = append(lines,
		st.Table.Header.Render(p.line(textable.Header(fig))),
		row("pass rate", fmt.Sprintf("%d/%d %.0f%%", x.A.Passed, x.A.Probes, 100*x.A.PassRate), fmt.Sprintf("%d/%d %.0f%%", x.B.Passed, x.B.Probes, 100*x.B.PassRate)),
		row("mean survivors", fmt.Sprintf("%.2f", x.A.MeanSurvivors), fmt.Sprintf("%.2f", x.B.MeanSurvivors)),
		row("strays", fmt.Sprint(x.A.StraySurvivors), fmt.Sprint(x.B.StraySurvivors)),
		st.Detail.Heading.Render(p.line(fmt.Sprintf("%s %s, %d flipped", wording.Count(x.Differences, "probe"), wording.Agree(x.Differences, "differs", "differ"), x.Flipped))))
	status := p.experimentStatus()
	room := max(2, p.height-len(lines)-len(status))
	if len(x.Probes) == 0 {
		lines = append(lines, st.App.Muted.Render(p.line("the two policies recall the same for every probe")))
		return p.fillExperiment(lines, status)
	}
	detail := p.experimentDetail(x.Probes[min(e.cur, len(x.Probes)-1)])
	listRows := min(len(x.Probes), max(1, room-1-min(len(detail), room/2)))
	cols := textable.Fill([]textable.Column{{Title: "A", Width: 4}, {Title: "B", Width: 4}, {Title: "PROBE", Width: 28}, {Title: "QUERY"}}, p.width, 8)
	lines = append(lines, st.Table.Header.Render(p.line(textable.Header(cols))))
	top := max(0, min(e.cur-listRows+1, len(x.Probes)-listRows))
	for i := top; i < top+listRows && i < len(x.Probes); i++ {
		d := x.Probes[i]
		r := p.line(textable.Row(cols, []string{passWord(d.PassA), passWord(d.PassB), d.ID, d.Query}))
		switch {
		case i == e.cur:
			r = st.Table.Selected.Render(r)
		case d.Flipped():
			r = st.App.Error.Render(r)
		default:
			r = st.Table.Row.Render(r)
		}
		lines = append(lines, r)
	}
	left := max(0, p.height-len(lines)-len(status))
	for i, l := range detail {
		if i >= left {
			break
		}
		lines = append(lines, l)
	}
	return p.fillExperiment(lines, status)
}

// fillExperiment is the view at the pane's height: the body, blank lines,
// the status on the last lines.
func (p goldenPane) fillExperiment(body, status []string) string {
	n := max(0, p.height-len(status))
	body = body[:min(len(body), n)]
	for len(body) < n {
		body = append(body, "")
	}
	return strings.Join(append(body, status...), "\n")
}

// experimentDetail is what moved for the selected probe: ranks, then the
// drops one policy made and the other did not (drop_kind at its stage).
func (p goldenPane) experimentDetail(d golden.ProbeDelta) []string {
	st := p.c.styles
	out := []string{st.Detail.Heading.Render(p.line(fmt.Sprintf("%s → %s  %s", passWord(d.PassA), passWord(d.PassB), d.ID)))}
	for _, m := range d.Drops {
		other := "not dropped"
		if m.OtherKind != "" {
			other = string(m.OtherKind)
		}
		out = append(out, p.line(fmt.Sprintf("  dropped under %s: %s at %s (under the other: %s) %s %s", m.Under, m.Kind, m.Stage, other, m.Memory, safetext.SanitizeLine(m.Text))))
	}
	for _, r := range d.Ranks {
		out = append(out, st.App.Muted.Render(p.line(fmt.Sprintf("  rank %s → %s  %s  %s", rankText(r.RankA), rankText(r.RankB), r.Memory, safetext.SanitizeLine(r.Text)))))
	}
	return out
}

func rankText(r int) string {
	if r == 0 {
		return "—"
	}
	return fmt.Sprint("#", r)
}

// experimentStatus is the status line, or W's confirmation.
func (p goldenPane) experimentStatus() []string {
	st := p.c.styles
	if p.exp.confirm {
		lines := wrapText(p.exp.plan, max(10, p.width), 3)
		for i, l := range lines {
			lines[i] = st.App.Error.Render(l)
		}
		return lines
	}
	if p.err != "" {
		return []string{st.App.Error.Render(p.line(p.err))}
	}
	return []string{st.App.Status.Render(p.line(p.status))}
}
