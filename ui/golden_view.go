package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/golden"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
)

func (p goldenPane) View() string {
	if p.exp.shown && p.set != nil {
		return p.experimentView()
	}
	lines := p.headerLines()
	lines = append(lines, p.probes.View())
	lines = append(lines, p.detailView(p.detailRows())...)
	lines = append(lines, p.statusLines()...)
	return strings.Join(lines, "\n")
}

// detailRows is the lines the selected probe's detail has: what the list
// leaves, less the status lines.
func (p goldenPane) detailRows() int {
	return p.probes.detailLines() - len(p.statusLines()) + 1
}

// detailScroll is the selected probe's detail scroll.
func (p goldenPane) detailScroll() detailScroll { return detailScroll{off: p.probes.detailTop} }

// scrollDetail scrolls the selected probe's detail below its heading for
// J/K or the wheel and reports whether msg was one of them.
func (p goldenPane) scrollDetail(msg tea.Msg) (goldenPane, bool) {
	r, ok := p.probes.selected()
	if !ok {
		return p, false
	}
	k := scrollKeys{Down: p.keys.DetailDown, Up: p.keys.DetailUp}
	s, used := p.detailScroll().update(msg, k, len(p.detailBody(r)), p.detailRows()-1)
	p.probes.detailTop = s.off
	return p, used
}

func (p goldenPane) line(s string) string {
	return safetext.Truncate(safetext.SanitizeLine(s), p.width)
}

// headerLines are the set and baseline, the run's counts with their deltas,
// and the progress bar (or the verdict against the baseline).
func (p goldenPane) headerLines() []string {
	st := p.c.styles
	if p.input.Focused() {
		return []string{p.input.View(), st.App.Muted.Render(p.line("enter loads the file, esc cancels")), "", ""}
	}
	if p.set == nil {
		msg := "loading the golden set…"
		if !p.loading {
			msg = "no golden set: o opens one (e.g. testdata/golden/demo.yaml)"
		}
		return []string{st.App.Title.Render(p.line("Golden")), st.App.Muted.Render(p.line(msg)), "", ""}
	}
	// The set's name, its size and whether it has a baseline stay; the
	// paths shorten to file names, then go.
	set := displayPath(p.setPath)
	parts := []headerPart{part("Golden · " + p.set.Name),
		{forms: []string{" · " + set, " · " + filepath.Base(set), ""}},
		part(" · " + wording.Count(len(p.set.Probes), "probe"))}
	if p.base != nil {
		parts = append(parts, headerPart{forms: []string{" · baseline " + p.basePath, " · baseline " + filepath.Base(p.basePath), " · baseline"}})
	} else {
		parts = append(parts, part(" · no baseline (S saves one)"))
	}
	for i := range parts {
		for j, f := range parts[i].forms {
			parts[i].forms[j] = safetext.SanitizeLine(f)
		}
	}
	head := fitHeader(p.width, parts)

	var third string
	switch {
	case p.progress.running:
		third = p.progress.View()
	case p.diff != nil:
		third = p.verdictLine()
	case p.run == nil && p.base != nil:
		third = "baseline not compared yet: r runs the set"
	}
	return []string{st.App.Title.Render(head), p.runsOnLine(), p.countsLine(), safetext.Truncate(third, p.width)}
}

// runsOnLine says which database r runs the set on — its fixture (a fresh
// database each run, as CI builds it) or the open one — and the key that
// switches, and what the last run ran on when that differs.
func (p goldenPane) runsOnLine() string {
	st := p.c.styles
	on := p.runsOn()
	// What r runs on and what the last run ran on stay; the explanation
	// goes first, then the key's wording shortens.
	parts := []headerPart{part("runs on: " + on)}
	switch {
	case p.set.Fixture == "":
		parts = append(parts, headerPart{forms: []string{" (the set has no fixture)", ""}})
	case p.onOpenDB:
		parts = append(parts, headerPart{forms: []string{" (your curation counts)", ""}},
			headerPart{forms: []string{" · d: back to the fixture", " · d: fixture"}, rank: 1})
	default:
		parts = append(parts, headerPart{forms: []string{" (a fresh DB each run)", ""}},
			headerPart{forms: []string{" · d: run on the open DB", " · d: open DB"}, rank: 1})
	}
	if p.run != nil && p.ranOn != "" && p.ranOn != on {
		parts = append(parts, part(" · last run: "+p.ranOn))
	}
	for i := range parts {
		for j, f := range parts[i].forms {
			parts[i].forms[j] = safetext.SanitizeLine(f)
		}
	}
	style := st.Detail.Label
	if p.onOpenDB {
		style = st.Status.Quarantined
	}
	return style.Render(fitHeader(p.width, parts))
}

// countsLine is the run's summary with its change against the baseline:
// passed/total, pass rate, present recall, mean guaranteed, mean prompt,
// and stray survivors per precision probe when the set has `only` probes.
func (p goldenPane) countsLine() string {
	st := p.c.styles
	if p.run == nil {
		if p.base != nil {
			s := p.base.Summary
			return st.App.Muted.Render(p.line(fmt.Sprintf("not run yet · baseline: %d/%d passed, pass rate %.1f%%, present recall %.3f, mean guaranteed %.2f, mean prompt %.0f chars",
				s.Passed, s.Probes, 100*s.PassRate, s.PresentRecall, s.MeanGuaranteed, s.MeanPromptChars)))
		}
		return st.App.Muted.Render(p.line("not run yet · r runs every probe"))
	}
	s := p.run.Summary
	var b *golden.Summary
	if p.base != nil {
		b = &p.base.Summary
	}
	delta := func(now float64, was func(golden.Summary) float64, scale float64, format string) string {
		if b == nil {
			return ""
		}
		d := (now - was(*b)) * scale
		if math.Abs(d) < 1e-9 {
			return " (=)"
		}
		return " (" + fmt.Sprintf(format, d) + ")"
	}
	parts := []string{
		fmt.Sprintf("%d/%d passed%s", s.Passed, s.Probes, delta(float64(s.Passed), func(x golden.Summary) float64 { return float64(x.Passed) }, 1, "%+.0f")),
		fmt.Sprintf("pass rate %.1f%%%s", 100*s.PassRate, delta(s.PassRate, func(x golden.Summary) float64 { return x.PassRate }, 100, "%+.1f pp")),
		fmt.Sprintf("present recall %.3f%s", s.PresentRecall, delta(s.PresentRecall, func(x golden.Summary) float64 { return x.PresentRecall }, 1, "%+.3f")),
		fmt.Sprintf("mean guaranteed %.2f%s", s.MeanGuaranteed, delta(s.MeanGuaranteed, func(x golden.Summary) float64 { return x.MeanGuaranteed }, 1, "%+.2f")),
		fmt.Sprintf("mean prompt %.0f chars%s", s.MeanPromptChars, delta(s.MeanPromptChars, func(x golden.Summary) float64 { return x.MeanPromptChars }, 1, "%+.0f")),
	}
	if s.MeanStraySurvivors != nil {
		was := func(x golden.Summary) float64 {
			if x.MeanStraySurvivors == nil {
				return 0
			}
			return *x.MeanStraySurvivors
		}
		// beside present recall, before the means a narrow line cuts off
		strays := fmt.Sprintf("strays %.2f/probe%s", *s.MeanStraySurvivors, delta(*s.MeanStraySurvivors, was, 1, "%+.2f"))
		parts = append(parts[:3], append([]string{strays}, parts[3:]...)...)
	}
	style := st.Status.Active
	if s.Failed > 0 {
		style = st.App.Error
	}
	return style.Render(p.line(strings.Join(parts, " · ")))
}

func (p goldenPane) verdictLine() string {
	st := p.c.styles
	d := p.diff
	text := fmt.Sprintf("vs baseline: %s · broke %d, fixed %d, missing %d, new %d, changed %d",
		"no regression", d.Count(golden.ChangeBroke), d.Count(golden.ChangeFixed), d.Count(golden.ChangeMissing), d.Count(golden.ChangeNew), d.Count(golden.ChangeSame))
	if d.Regressed() {
		return st.App.Error.Render(p.line(strings.Replace(text, "no regression", "REGRESSED", 1)))
	}
	return st.Status.Active.Render(p.line(text))
}

// verdict is the RESULT cell: this run's, else the baseline's in brackets.
func (r goldenRow) verdict() string {
	switch {
	case r.Result != nil && r.Result.Error != "":
		return "ERROR"
	case r.Result != nil && r.Result.Pass:
		return "PASS"
	case r.Result != nil:
		return "FAIL"
	case r.Change != nil && r.Change.Change == golden.ChangeMissing:
		return "MISSING"
	case r.Was != nil && r.Was.Pass:
		return "(pass)"
	case r.Was != nil:
		return "(fail)"
	}
	return "·"
}

// delta is the Δ cell: how the probe moved against the baseline.
func (r goldenRow) delta() string {
	if r.Change == nil {
		if r.Result != nil && r.Was != nil {
			return "="
		}
		return ""
	}
	switch r.Change.Change {
	case golden.ChangeBroke, golden.ChangeFixed, golden.ChangeMissing, golden.ChangeNew:
		return string(r.Change.Change)
	}
	var parts []string
	if n := len(r.Change.Entered); n > 0 {
		parts = append(parts, "+"+strconv.Itoa(n))
	}
	if n := len(r.Change.Left); n > 0 {
		parts = append(parts, "−"+strconv.Itoa(n))
	}
	if len(parts) == 0 {
		return "metrics"
	}
	return strings.Join(parts, " ")
}

// detailView is the selected probe: its query and recall parameters, its
// failures, the survivors that entered or left against the baseline (by
// key), the metrics, and this run's survivors. J/K scroll it.
func (p goldenPane) detailView(n int) []string {
	st := p.c.styles
	if n <= 0 {
		return nil
	}
	r, ok := p.probes.selected()
	if !ok {
		return fill([]string{st.Detail.Heading.Render("probe")}, n)
	}
	head := "── " + r.ID + " · " + r.verdict()
	if r.Change != nil {
		head += " · " + string(r.Change.Change)
		if r.Change.Change != golden.ChangeNew {
			head += " (baseline: " + passWord(r.Change.WasPass) + ")"
		}
	}
	lines := []string{st.Detail.Heading.Render(p.line(head))}
	for _, l := range p.detailScroll().window(p.c, p.detailBody(r), n-1) {
		lines = append(lines, safetext.Truncate(l, p.width))
	}
	return lines
}

func (p goldenPane) detailBody(r goldenRow) []string {
	st := p.c.styles
	var out []string
	add := func(style func(...string) string, prefix, text string) {
		w := max(10, p.width-safetext.Width(prefix)-1)
		for i, l := range wrapText(text, w, 0) {
			if i > 0 {
				prefix = strings.Repeat(" ", safetext.Width(prefix))
			}
			out = append(out, style(prefix+l))
		}
	}
	plain := st.Detail.Value.Render
	if r.Probe != nil && p.set != nil {
		q := p.probeQuery(r)
		add(plain, "  query  ", q.Text)
		params := fmt.Sprintf("  at %s · k %d · budget %d", q.At.UTC().Format("2006-01-02 15:04Z"), q.K, q.Budget)
		if q.Session != "" {
			params += " · session " + q.Session
		}
		if q.Project != "" {
			params += " · project " + q.Project
		}
		out = append(out, st.Detail.Label.Render(safetext.SanitizeLine(params)+" · enter opens the trace"))
		if r.Probe.Note != "" {
			add(st.Detail.Label.Render, "  note   ", r.Probe.Note)
		}
		if terms := r.Probe.Expect.Terms(); len(terms) > 0 {
			style := st.Detail.Value.Render
			mark := ""
			switch {
			case r.Result != nil && r.Result.Pass:
				style, mark = st.Status.Active.Render, "✓ "
			case r.Result != nil:
				mark = "✗ "
			}
			add(style, "  expect "+mark, strings.Join(terms, " · "))
		}
	}
	var failures []string
	switch {
	case r.Result != nil:
		failures = r.Result.Failures
	case r.Change != nil:
		failures = r.Change.Failures
	}
	for _, f := range failures {
		add(st.App.Error.Render, "  ✗ ", f)
	}
	if r.Change != nil {
		for _, s := range r.Change.Entered {
			add(st.Status.Active.Render, "  + entered "+survivorLabel(s)+"  ", s.Text)
		}
		for _, s := range r.Change.Left {
			add(st.App.Error.Render, "  − left    "+survivorLabel(s)+"  ", s.Text)
		}
	}
	if m := p.metricsLine(r); m != "" {
		out = append(out, st.Detail.Label.Render(safetext.SanitizeLine(m)))
	}
	if r.Result != nil {
		if len(r.Result.Survivors) == 0 {
			out = append(out, st.Detail.Label.Render("  no survivors"))
		}
		for _, s := range r.Result.Survivors {
			out = append(out, plain(safetext.Truncate("  · "+safetext.PadRight(survivorLabel(s), 14)+" "+safetext.SanitizeLine(s.Text), p.width)))
		}
	}
	return out
}

// metricsLine lists the probe's metrics, each with its change against the
// baseline when it moved.
// measureDetail is the most lines any probe's detail takes, plus its
// heading: what the list leaves the detail when there is room.
func (p goldenPane) measureDetail() int {
	need := 0
	for _, r := range p.probes.rows {
		need = max(need, len(p.detailBody(r))+1)
	}
	return need
}

func (p goldenPane) metricsLine(r goldenRow) string {
	var m map[string]float64
	switch {
	case r.Result != nil:
		m = r.Result.Metrics
	case r.Was != nil:
		m = r.Was.Metrics
	}
	moved := map[string]golden.MetricDelta{}
	if r.Change != nil {
		for _, d := range r.Change.Metrics {
			moved[d.Name] = d
		}
	}
	names := make([]string, 0, len(m)+len(moved))
	for k := range m {
		names = append(names, k)
	}
	for k := range moved {
		if _, ok := m[k]; !ok {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		d, ok := moved[n]
		switch {
		case !ok:
			parts = append(parts, n+" "+metricNum(m[n]))
		case d.Missing == "was":
			parts = append(parts, n+" (none) → "+metricNum(d.Now))
		case d.Missing == "now":
			parts = append(parts, n+" "+metricNum(d.Was)+" → (none)")
		default:
			parts = append(parts, fmt.Sprintf("%s %s → %s (%+.4g)", n, metricNum(d.Was), metricNum(d.Now), d.Delta()))
		}
	}
	return "  metrics: " + strings.Join(parts, " · ")
}

func metricNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// survivorLabel names a survivor as run files match it: key, else row id.
func survivorLabel(s golden.SurvivorRef) string {
	if s.Key != "" {
		return "key:" + safetext.SanitizeLine(s.Key)
	}
	return "id:" + strconv.FormatInt(s.ID, 10)
}

func passWord(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}

// statusLines is one line of status, or the save confirmation wrapped over
// up to three lines (it names the file it overwrites, which must show in
// full).
func (p goldenPane) statusLines() []string {
	if !p.confirmSave {
		return append(p.filterLines(), p.statusLine())
	}
	lines := wrapText(p.saveQuestion(), max(10, p.width), min(3, p.probes.detailLines()))
	for i, l := range lines {
		lines[i] = p.c.styles.App.Error.Render(l)
	}
	return lines
}

func (p goldenPane) statusLine() string {
	st := p.c.styles
	switch {
	case p.err != "":
		return st.App.Error.Render(p.line(p.err))
	case p.saving:
		return st.App.Status.Render(p.line("saving the baseline…"))
	case p.loading:
		return st.App.Status.Render(p.line("loading…"))
	}
	return st.App.Status.Render(p.line(p.status))
}
