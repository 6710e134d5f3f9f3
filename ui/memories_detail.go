package ui

import (
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// detailView draws every field of the selected memory, its content and its
// audit history in n lines, scrolled with J/K when they do not fit.
func (p memoriesPane) detailView(n int) []string {
	if n <= 0 {
		return nil
	}
	return p.dscroll.window(p.c, p.detailLines(n), n)
}

// detailLines are every line of the detail; n is the room it has, which
// the decay plot sizes itself to.
func (p memoriesPane) detailLines(n int) []string {
	st := p.c.styles
	m, ok := p.list.selected()
	if !ok {
		return []string{st.Detail.Heading.Render("Detail")}
	}
	head := fmt.Sprintf("── memory %d ", m.ID)
	lines := []string{st.Detail.Heading.Render(head + strings.Repeat("─", max(0, p.width-safetext.Width(head))))}

	fields := memoryFields(m)
	if p.height < memoriesTallHeight {
		// A short terminal flows the fields ("label value · …") so that
		// the decay curve and the audit rows keep their lines.
		var parts []string
		for _, f := range fields {
			v := f[1]
			if v == "" {
				v = "—"
			}
			parts = append(parts, f[0]+" "+v)
		}
		for _, l := range wrapParts(parts, " · ", p.width, 0) {
			lines = append(lines, st.Detail.Value.Render(l))
		}
		return p.detailRest(m, lines, n)
	}
	// Three fields a row where they fit (room for the decay plot below),
	// else two, else one.
	const label, minValue, gap = 13, 18, 2
	per := 1
	for _, n := range []int{3, 2} {
		if p.width >= n*(label+minValue)+(n-1)*gap {
			per = n
			break
		}
	}
	cellW := max(label+1, (p.width-(per-1)*gap)/per)
	cell := func(f [2]string) string {
		return st.Detail.Label.Render(safetext.PadRight(f[0], label)) +
			st.Detail.Value.Render(safetext.PadRight(safetext.SanitizeLine(f[1]), cellW-label))
	}
	for i := 0; i < len(fields); i += per {
		var cells []string
		for _, f := range fields[i:min(i+per, len(fields))] {
			cells = append(cells, cell(f))
		}
		lines = append(lines, strings.Join(cells, strings.Repeat(" ", gap)))
	}
	return p.detailRest(m, lines, n)
}

// detailRest adds the content, the decay curve and the audit history under
// the fields, in n lines in all.
func (p memoriesPane) detailRest(m *engine.Memory, lines []string, n int) []string {
	st := p.c.styles
	lines = append(lines, p.chainView(m)...)
	lines = append(lines, st.Detail.Label.Render("content"))
	for _, l := range wrapText(m.Content, max(10, p.width-2), 0) {
		lines = append(lines, "  "+st.Detail.Value.Render(l))
	}

	lines = append(lines, p.decayView(m, n-len(lines))...)

	lines = append(lines, st.Detail.Heading.Render("audit history"))
	switch {
	case p.auditLoading:
		lines = append(lines, st.App.Muted.Render("  loading…"))
	case len(p.audit) == 0:
		lines = append(lines, st.App.Muted.Render("  no audit rows"))
	default:
		// CHANGE keeps textable.MinText cells: ACTOR, BATCH and ACTION
		// narrow first, then BATCH gives way (Curate's history has it whole).
		cols := textable.Fit([]textable.Column{
			{Title: "AT", Width: 16}, {Title: "ACTOR", Width: 10, Min: 8, Drop: 1}, {Title: "ACTION", Width: 12, Min: 10},
			{Title: "BATCH", Width: 24, Min: 12, Drop: 2}, {Title: "CHANGE"},
		}, p.width, textable.MinText)
		lines = append(lines, st.Table.Header.Render(textable.Header(cols)))
		// Newest first: what the curator just did is on top.
		for i := len(p.audit) - 1; i >= 0; i-- {
			a := p.audit[i]
			lines = append(lines, textable.Row(cols, []string{
				a.At.UTC().Format("2006-01-02 15:04"), a.Actor, a.Action, a.Batch, auditChange(a),
			}))
		}
	}
	return lines
}

// detailAuditMin is what the detail keeps for the audit history: its
// heading, the column header and the newest row.
const detailAuditMin = 3

// decayView is the decay curve of m over the next year in the avail lines
// left above the audit history: the plot with 2 to 6 rows of bars when
// the audit history keeps detailAuditMin lines, else the forecast caption
// alone (it goes before audit rows), else nothing.
func (p memoriesPane) decayView(m *engine.Memory, avail int) []string {
	budget := avail - detailAuditMin
	if avail < 2 {
		return nil
	}
	cfg := p.c.deps.Engine.Config()
	cols := max(10, p.width-2-decayLabelWidth)
	plot := newDecayPlot(*m, p.c.now(), cols, cfg)
	lines := plot.render(p.c.styles, max(2, min(6, budget-2)))
	lines[0] = safetext.Truncate(lines[0], p.width)
	if budget < 4 {
		return lines[:1]
	}
	for i := range lines[1:] {
		lines[i+1] = "  " + lines[i+1]
	}
	return lines
}

// fill cuts lines to exactly n, padding with empty lines.
func fill(lines []string, n int) []string {
	if len(lines) > n {
		return lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

func memoryFields(m *engine.Memory) [][2]string {
	at := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04")
	}
	day := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02")
	}
	return [][2]string{
		{"id", fmt.Sprint(m.ID)}, {"key", m.Key},
		{"kind", string(m.Kind)}, {"type", m.Type},
		{"orig_type", m.OrigType}, {"status", string(m.Status)},
		{"tier", string(m.Tier)}, {"scope", m.Scope},
		{"importance", fmt.Sprintf("%.2f", m.Importance)}, {"role", m.Role},
		{"session", m.Session}, {"created", at(m.CreatedAt)},
		{"last access", at(m.LastAccessedAt)}, {"accesses", fmt.Sprint(m.AccessCount)},
		{"boost", fmt.Sprintf("%.3f (%s)", m.Boost, day(m.BoostAt))}, {"hash", short(m.Hash, 16)},
	}
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// auditChange says in a few words what an audit row changed.
func auditChange(a *engine.AuditEntry) string {
	switch {
	case a.Before == nil && a.After != nil:
		return "created: " + a.After.Content
	case a.Before == nil || a.After == nil:
		return ""
	}
	b, f := a.Before, a.After
	var parts []string
	diff := func(name, x, y string) {
		if x != y {
			parts = append(parts, fmt.Sprintf("%s %s→%s", name, x, y))
		}
	}
	diff("status", string(b.Status), string(f.Status))
	diff("type", b.Type, f.Type)
	diff("orig_type", b.OrigType, f.OrigType)
	diff("kind", string(b.Kind), string(f.Kind))
	diff("tier", string(b.Tier), string(f.Tier))
	diff("scope", b.Scope, f.Scope)
	diff("importance", fmt.Sprintf("%.2f", b.Importance), fmt.Sprintf("%.2f", f.Importance))
	if b.Content != f.Content {
		parts = append(parts, "content edited")
	}
	if b.SupersededBy != f.SupersededBy {
		sup := func(id int64) string {
			if id == 0 {
				return "none"
			}
			return fmt.Sprintf("#%d", id)
		}
		s := fmt.Sprintf("superseded_by %s→%s", sup(b.SupersededBy), sup(f.SupersededBy))
		if f.SupersededBy != 0 {
			s += " until " + day(f.ValidTo)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no field changed"
	}
	return strings.Join(parts, ", ")
}
