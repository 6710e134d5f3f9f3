package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
)

// eraseView draws the erase request in the pane's width × height: a title,
// what the stage asks, the candidates (from the trace) with the ones
// confirmed marked, and a status line.
func (p curatePane) eraseViewLines() string {
	v, st, w := p.erase, p.c.styles, max(20, p.width)
	line := func(s string) string { return safetext.Truncate(s, w) }
	title, rest := "ERASE BY SUBJECT", " · for good: it cannot be rolled back"
	out := []string{st.App.Title.Render(line(title)) + st.App.Muted.Render(safetext.Truncate(rest, max(0, w-safetext.Width(title))))}
	switch v.stage {
	case eraseAsk, eraseSearching:
		out = append(out, "", line("Whom or what should memtrace forget? The subject is recalled (read-only, every tier)"),
			line("and each memory its words find is listed for you to confirm one by one."), "", v.input.View())
		if v.stage == eraseSearching {
			out = append(out, "", st.App.Muted.Render(line("recalling…")))
		}
	case eraseDone:
		out = append(out, p.eraseReportLines(w)...)
	default:
		out = append(out, p.eraseCandidateLines(w)...)
	}
	status := ""
	switch {
	case v.err != "":
		status = st.App.Error.Render(line(safetext.SanitizeLine(v.err)))
	case v.stage == eraseRunning:
		status = st.App.Status.Render(line("erasing… (secure delete, then the file is rebuilt)"))
	}
	return strings.Join(append(fill(out, max(1, p.height-1)), status), "\n")
}

// eraseCandidateLines are the trace's summary, the candidates and, at the
// bottom, the question of the stage.
func (p curatePane) eraseCandidateLines(w int) []string {
	v, st := p.erase, p.c.styles
	line := func(s string) string { return safetext.Truncate(s, w) }
	var out []string
	if c := v.trace.Stage("candidates"); c != nil {
		out = append(out, st.App.Muted.Render(line(fmt.Sprintf("recall for %q at %s: %d candidates, %d named by its words · %d confirmed",
			safetext.SanitizeLine(v.subject), v.trace.At.UTC().Format("2006-01-02 15:04"), c.Out, len(v.cands), v.count()))))
	}
	if len(v.cands) == 0 {
		return append(out, "", line("No memory names it: nothing to erase. esc: another subject."))
	}
	ask := p.eraseQuestion(w)
	rows := max(1, p.height-3-len(out)-len(ask)) // title, header, status
	first := max(0, min(v.cursor-rows/2, len(v.cands)-rows))
	out = append(out, st.Table.Header.Render(line(fmt.Sprintf("    %5s  %6s  %-11s  %s", "ID", "BM25", "STATUS", "TEXT"))))
	for i := first; i < len(v.cands) && i < first+rows; i++ {
		m := v.cands[i]
		mark := "[ ]"
		if v.confirmed[m.ID] {
			mark = "[x]"
		}
		s := line(fmt.Sprintf("%s %5d  %6.2f  %-11s  %s", mark, m.ID, v.scores[m.ID], m.Status, safetext.SanitizeLine(m.Content)))
		if i == v.cursor && v.stage == erasePick {
			s = st.Table.Selected.Render(safetext.PadRight(s, w))
		}
		out = append(out, s)
	}
	return append(fill(out, max(1, p.height-2-len(ask))), ask...) // below the title, above the status line
}

// eraseQuestion is what the stage asks, over the status line.
func (p curatePane) eraseQuestion(w int) []string {
	v, st := p.erase, p.c.styles
	line := func(s string) string { return safetext.Truncate(s, w) }
	switch v.stage {
	case eraseConfirm:
		return []string{st.App.Title.Render(line(fmt.Sprintf("Erase %s for good? Their text leaves every table, index, trace and judge cache;", wording.Memories(v.count())))),
			st.App.Title.Render(line("a tombstone keeps who, when, why and a salted hash. It cannot be rolled back.")),
			st.App.Muted.Render(line("enter/y continue · esc/n back"))}
	case eraseCount, eraseRunning:
		return []string{st.App.Title.Render(line(fmt.Sprintf("Last question: erase %s, which cannot be rolled back.", wording.Memories(v.count())))), v.input.View(),
			st.App.Muted.Render(line("enter erase · esc cancel"))}
	}
	return []string{st.App.Muted.Render(line("space/y confirm this one · enter erase the confirmed… · esc another subject"))}
}

// eraseReportLines say what the erasure removed and what is left to do.
func (p curatePane) eraseReportLines(w int) []string {
	rep, st := p.erase.report, p.c.styles
	line := func(s string) string { return safetext.Truncate(s, w) }
	out := []string{"", st.App.Title.Render(line(fmt.Sprintf("erased %s in batch %s — it cannot be rolled back", wording.Memories(len(rep.Erased)), rep.Batch)))}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(rep.Scrubbed)) {
		parts = append(parts, fmt.Sprintf("%s %d", t, rep.Scrubbed[t]))
	}
	if len(parts) > 0 {
		out = append(out, line("rewritten: "+strings.Join(parts, ", ")))
	}
	for _, c := range rep.Compaction {
		out = append(out, line("done: "+safetext.SanitizeLine(c)))
	}
	for _, c := range rep.Pending {
		out = append(out, st.App.Error.Render(line("still to do: "+safetext.SanitizeLine(c))))
	}
	if len(rep.Artifacts) > 0 {
		out = append(out, line("files written before may still hold the text; delete or rewrite them by hand:"))
		for _, a := range rep.Artifacts {
			out = append(out, line(fmt.Sprintf("  %-7s %s", a.Kind, safetext.SanitizeLine(a.Path))))
		}
	}
	return append(out, "", st.App.Muted.Render(line("each memory is a tombstone now (status "+string(engine.StatusErased)+"); esc closes")))
}
