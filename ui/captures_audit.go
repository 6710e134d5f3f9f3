package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// The Captures tab's audit view (A): `memtrace audit` on the open database —
// seed 000's look at a store, most useful right after `import memories`
// brought an agent's existing memory: noise by pattern, types, label
// prefixes, duplicates, and what today's capture pipeline would not store.

type storeAuditMsg struct {
	Audit *curate.StoreAudit
	Err   error
}

// auditCmd runs the audit off the UI goroutine.
func (p capturesPane) auditCmd() tea.Cmd {
	eng, ctx := p.c.deps.Engine, p.c.ctx
	return func() tea.Msg {
		a, err := curate.AuditStore(ctx, eng)
		return send(paneCaptures, storeAuditMsg{Audit: a, Err: err})
	}
}

// toggleAudit opens the audit view (running the audit each time it opens,
// so it shows the store as it is now) or closes it.
func (p capturesPane) toggleAudit() (capturesPane, tea.Cmd) {
	if p.auditOpen {
		p.auditOpen = false
		return p, nil
	}
	p.auditOpen, p.auditLoading, p.auditScroll = true, true, detailScroll{}
	return p, p.auditCmd()
}

// auditLines renders the audit as plain rows of width w.
func (p capturesPane) auditLines(w int) []string {
	st := p.c.styles
	if p.auditLoading {
		return []string{st.App.Muted.Render(safetext.PadRight("auditing the store…", w))}
	}
	a := p.audit
	if a == nil {
		return []string{st.App.Muted.Render(safetext.PadRight("no audit", w))}
	}
	var out []string
	head := func(s string) { out = append(out, st.Detail.Heading.Render(safetext.PadRight(s, w))) }
	row := func(cols []textable.Column, cells ...string) { out = append(out, textable.Row(cols, cells)) }
	head(fmt.Sprintf("store audit · %d memories · %d active (the figures are about these) · %d quarantined · %d archived",
		a.Memories, a.Scanned, a.ByStatus[engine.StatusQuarantined], a.ByStatus[engine.StatusArchived]))
	noise := textable.Fill([]textable.Column{{Title: "LAYER", Width: 6}, {Title: "COUNT", Width: 6, Right: true}, {Title: "SHARE", Width: 7, Right: true}, {Title: "PATTERN"}}, w, 12)
	head(fmt.Sprintf("noise: %d (%.1f%%)", a.Noise.Count, a.Noise.Share))
	out = append(out, st.Table.Header.Render(textable.Header(noise)))
	for _, x := range a.Noise.Patterns {
		row(noise, x.Layer, fmt.Sprint(x.Count), fmt.Sprintf("%.1f%%", x.Share), x.Pattern)
	}
	census := textable.Fill([]textable.Column{{Title: "COUNT", Width: 6, Right: true}, {Title: "SHARE", Width: 7, Right: true}, {Title: "NAME"}}, w, 12)
	head("types")
	for _, x := range a.Types {
		row(census, fmt.Sprint(x.Count), fmt.Sprintf("%.1f%%", x.Share), x.Name)
	}
	head(fmt.Sprintf("label prefixes: %s with one", wording.Memories(a.Labelled)))
	for _, x := range a.LabelPrefixes {
		row(census, fmt.Sprint(x.Count), fmt.Sprintf("%.1f%%", x.Share), x.Name)
	}
	head(fmt.Sprintf("duplicates: %d exact, %d near", a.Duplicates.Exact, a.Duplicates.Near))
	head(fmt.Sprintf("would not be stored by today's capture pipeline: %d (%.1f%%)", a.WouldNotStore.Count, a.WouldNotStore.Share))
	reasons := textable.Fill([]textable.Column{{Title: "LAYER", Width: 6}, {Title: "COUNT", Width: 6, Right: true}, {Title: "REASON"}}, w, 12)
	for _, x := range a.WouldNotStore.ByReason {
		row(reasons, x.Layer, fmt.Sprint(x.Count), x.Reason)
	}
	return out
}

// auditView is the audit filling the list area (n rows), scrolled by the
// list keys.
func (p capturesPane) auditView(n int) []string {
	k := p.keys.list
	lines := p.auditScroll.windowKeys(p.c, p.auditLines(p.width), n, k.Down.Help().Key, k.Up.Help().Key)
	for i, l := range lines {
		lines[i] = safetext.PadRight(l, p.width)
	}
	for len(lines) < n {
		lines = append(lines, strings.Repeat(" ", p.width))
	}
	return lines
}
