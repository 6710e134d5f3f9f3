package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
	"memtrace/tiers"
)

// header is the queues' header: a tab per kind with its count of
// open proposals, then what waits elsewhere (approved proposals, held
// captures, new supersession links). When the tabs do not fit the width
// (they take 101 cells), the empty ones other than the selected one fold
// into a count; the waiting counts shorten but stay.
func (v queuesView) header() string {
	st := v.c.styles
	approved := 0
	for _, pr := range v.props {
		if pr.Status == engine.ProposalApproved {
			approved++
		}
	}
	var tabs, folded []headerPart
	tabsWidth, empty := 0, 0
	for i, kind := range curateKinds() {
		n := 0
		for _, pr := range v.props {
			if isOpen(pr) && queueKind(pr) == kind {
				n++
			}
		}
		label := fmt.Sprintf("%s %d", kind, n)
		tab := st.Tabs.Inactive.Render(label)
		if i == v.kindIdx {
			tab = st.Tabs.Active.Render(label)
		}
		tabs, tabsWidth = append(tabs, part(tab)), tabsWidth+safetext.Width(tab)
		switch {
		case i == v.kindIdx:
			folded = append(folded, part(tab))
		case n > 0:
			// A queue with work in it gives way only after the waiting
			// counts have shortened.
			folded = append(folded, headerPart{forms: []string{tab, ""}, rank: 2})
		default:
			empty++
		}
	}
	waiting := func(long, short string) headerPart {
		return headerPart{forms: []string{st.Status.Active.Render(long), st.Status.Active.Render(short)}, rank: 1}
	}
	var alerts []headerPart
	if approved > 0 {
		alerts = append(alerts, waiting(fmt.Sprintf("  %d approved (P applies)", approved), fmt.Sprintf("  %d approved (P)", approved)))
	}
	if n := v.held; n > 0 {
		alerts = append(alerts, waiting(fmt.Sprintf("  %d held captures (v)", n), fmt.Sprintf("  %d held (v)", n)))
	}
	if n := v.links; n > 0 {
		alerts = append(alerts, waiting("  "+wording.Count(n, "new supersession link")+" (S)", fmt.Sprintf("  %d superseded (S)", n)))
	}
	shortest := 0
	for _, a := range alerts {
		shortest += safetext.Width(a.forms[len(a.forms)-1])
	}
	if tabsWidth+shortest <= v.width || empty == 0 {
		return fitHeader(v.width, append(tabs, alerts...))
	}
	more := st.App.Muted.Render(fmt.Sprintf(" +%d empty", empty))
	folded = append(folded, headerPart{forms: []string{more, ""}, rank: 0})
	return fitHeader(v.width, append(folded, alerts...))
}

// keyBindings are the queue's keys, with u when a rejection of the
// session can be undone, and the filter's and the list's.
func (v queuesView) keyBindings(undo bool, filter, move []key.Binding) []key.Binding {
	k := v.keys
	var out []key.Binding
	_, ok := v.list.current()
	if ok {
		// Keys about the proposal under the cursor: only when there is one.
		out = append(out, k.Approve, k.ApproveApply, k.Reject)
	}
	if undo {
		out = append(out, k.UndoReject)
	}
	if ok {
		out = append(out, k.Retype, k.Select, k.Range, k.Batch)
	}
	out = append(out, k.ApplyAll)
	out = append(out, v.dscroll.bindings(k.scroll.Down, k.scroll.Up, len(v.detail()), curateDetailLines)...)
	out = append(append(out, filter...), k.Prev, k.Next)
	out = append(out, move...)
	return append(out, k.Control, k.History, k.Held, k.Superseded, k.Reload)
}

func (v queuesView) View() string {
	// MEMORY keeps textable.MinText cells: STATUS and FLAGS narrow, then
	// MEM and CONF give way (the detail below shows them).
	cols := textable.Fit([]textable.Column{{Title: " ", Width: 1}, {Title: "PROP", Width: 6, Right: true}, {Title: "MEM", Width: 6, Right: true, Drop: 1},
		{Title: "STATUS", Width: 12, Min: 8}, {Title: "CONF", Width: 4, Right: true, Drop: 2}, {Title: "FLAGS", Width: 10, Min: 6}, {Title: "MEMORY"}}, v.width, textable.MinText)
	empty := "nothing in this queue (←/→ for the others)"
	if v.list.filtered() {
		empty = "no proposal in this queue matches the filter (esc clears it)"
	}
	out := v.list.table(v.c.styles, cols, func(i int, pr *engine.Proposal) ([]string, bool) {
		mark := ""
		switch {
		case v.selected[pr.ID]:
			mark = "●"
		case v.inRange(i):
			mark = "┃"
		}
		flags := ""
		fs := flagsOf(pr)
		if len(fs) > 0 && fs[0] == engine.FlagInjectionAttempt {
			flags = "⚠ INJECT"
		} else if len(fs) > 0 {
			flags = fs[0]
		}
		mem := fmt.Sprint(pr.MemoryID)
		if pr.MemoryID == 0 {
			mem = "—" // a promotion's rule does not exist yet
		}
		return []string{mark, fmt.Sprint(pr.ID), mem, pr.Status, confidenceCell(pr), flags, v.subject(pr)}, flags == "⚠ INJECT"
	}, empty)
	return strings.Join(append(out, v.dscroll.window(v.c, v.detail(), curateDetailLines)...), "\n")
}

// flagsOf returns the verdict's flags, injection_attempt first.
func flagsOf(pr *engine.Proposal) []string {
	pv, ok := curate.ParseProposalVerdict(pr)
	if !ok {
		return nil
	}
	var out []string
	if pv.HasFlag(engine.FlagInjectionAttempt) {
		out = append(out, engine.FlagInjectionAttempt)
	}
	for _, f := range pv.Flags {
		if f != engine.FlagInjectionAttempt {
			out = append(out, f)
		}
	}
	return out
}

// detailView is the selected proposal: the memory, the reason, the
// confidence, the flags (injection first, loudly) and the evidence of its
// kind.
func (v queuesView) detail() []string {
	st := v.c.styles
	pr, ok := v.list.current()
	if !ok {
		return nil
	}
	w := max(10, v.width-2)
	head := fmt.Sprintf("── proposal %d · %s", pr.ID, pr.Kind)
	if pr.TargetType != "" {
		head += " → " + pr.TargetType
	}
	head += fmt.Sprintf(" · by %s", pr.Proposer)
	if pr.Model != "" {
		head += " (" + pr.Model + ")"
	}
	out := []string{st.Detail.Heading.Render(safetext.Truncate(safetext.SanitizeLine(head), v.width))}
	fs := flagsOf(pr)
	if len(fs) > 0 && fs[0] == engine.FlagInjectionAttempt {
		out = append(out, st.App.Error.Render(safetext.Truncate("⚠ injection_attempt: this memory's text tries to instruct the judge — do not trust the verdict", v.width)))
	}
	if pr.Kind == engine.ProposalPromote {
		// No memory yet: the rule it would write, whole (J/K and the
		// wheel scroll the detail to the occurrences below).
		rule, edited := ruleWording(pr)
		label := "HOT rule "
		if edited {
			label = "HOT rule (edited) "
		}
		lines := wrapText(rule, max(10, w-safetext.Width(label)), 0)
		for i, l := range lines {
			if i == 0 {
				out = append(out, st.Detail.Label.Render(label)+st.Detail.Value.Render(l))
			} else {
				out = append(out, strings.Repeat(" ", safetext.Width(label))+st.Detail.Value.Render(l))
			}
		}
	} else {
		for _, l := range wrapText(v.memories.text(pr.MemoryID), w, 0) {
			out = append(out, "  "+l)
		}
	}
	// The reason whole, wrapped at word boundaries (J/K scroll the detail
	// when it is taller than its lines).
	out = append(out, labelled(v.c, "reason ", curate.ShownReason(pr), v.width)...)
	meta := "no confidence: proposed by " + pr.Proposer + ", not a judge"
	if c := confidenceCell(pr); c != "—" {
		meta = "confidence " + c
	} else if pr.Proposer == engine.ProposerJudge {
		meta = "no confidence: the judge's answer did not validate"
	}
	if len(fs) > 0 {
		meta += " · flags " + strings.Join(fs, ", ")
	}
	for _, l := range wrapText(meta, max(10, v.width), 0) {
		out = append(out, st.Detail.Label.Render(l))
	}
	out = append(out, v.evidence(pr)...)
	return out
}

// evidence is kind-specific: occurrences for a promotion, the heartbeat's
// evidence (rule, last use, access count, importance, forecast, reach) for
// its moves and review notes, last use for other demotions and archives.
func (v queuesView) evidence(pr *engine.Proposal) []string {
	st := v.c.styles
	switch pr.Kind {
	case engine.ProposalPromote:
		var ev struct {
			Occurrences []engine.Occurrence `json:"occurrences"`
		}
		_ = json.Unmarshal(pr.Verdict, &ev)
		out := []string{st.Detail.Label.Render(fmt.Sprintf("seen %s:", wording.Count(len(ev.Occurrences), "time")))}
		// Each occurrence whole, wrapped under its text.
		for _, o := range ev.Occurrences {
			for i, l := range wrapText(fmt.Sprintf("%s %s: %s", o.At.UTC().Format("2006-01-02"), o.Session, o.Text), max(10, v.width-4), 0) {
				if i == 0 {
					out = append(out, "  "+l)
				} else {
					out = append(out, "    "+l)
				}
			}
		}
		return out
	}
	if ev, ok := tiers.ParseLifecycleEvidence(pr); ok {
		line := fmt.Sprintf("rule %s · last used %s · used %s · importance %.2f · forecast %s · reach %d · score %.2f",
			ev.Rule, ev.LastUse.UTC().Format("2006-01-02"), wording.Count(ev.AccessCount, "time"), ev.Importance, ev.ForgetAt.UTC().Format("2006-01-02"), ev.Reach, ev.Score)
		if ev.Vital {
			line += " · vital"
		}
		var out []string
		for _, l := range wrapText(line, max(10, v.width), 0) {
			out = append(out, st.Detail.Label.Render(l))
		}
		return out
	}
	switch pr.Kind {
	case engine.ProposalDemote, engine.ProposalArchive:
		if m, ok := v.memories[pr.MemoryID]; ok {
			last := m.LastAccessedAt
			if last.IsZero() {
				last = m.CreatedAt
			}
			days := int(v.c.now().Sub(last).Hours() / 24)
			return []string{st.Detail.Label.Render(fmt.Sprintf("last used %s (%s ago) · tier %s · used %s",
				last.UTC().Format("2006-01-02"), wording.Count(days, "day"), m.Tier, wording.Count(m.AccessCount, "time")))}
		}
	}
	return nil
}

// confidenceCell is the CONF column: the judge's confidence, or "—" where
// no judge gave one (heartbeat, rule and import proposals, and a judge
// answer that did not validate).
func confidenceCell(pr *engine.Proposal) string {
	if pr.Proposer != engine.ProposerJudge || pr.Status == engine.ProposalReview {
		return "—"
	}
	return fmt.Sprintf("%.2f", pr.Confidence)
}
