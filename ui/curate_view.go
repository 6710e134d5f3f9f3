package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/tiers"
)

// curateDetailLines is the height of the selected proposal's detail.
const curateDetailLines = 9

func (p curatePane) View() string {
	st := p.c.styles
	var lines []string
	lines = append(lines, p.headerLine())
	switch p.mode {
	case modeControl:
		lines = append(lines, p.controlView()...)
	case modeHistory:
		lines = append(lines, p.historyView()...)
	case modeHeld:
		lines = append(lines, p.heldView()...)
	case modeBatch:
		lines = append(lines, p.batchView()...)
	case modeSuperseded:
		lines = append(lines, p.supersededView()...)
	default:
		lines = append(lines, p.queueView()...)
	}
	if p.dlg != nil {
		// The dialog takes the bottom of the pane, above the status line;
		// the lists above it give way so that it is always on screen.
		dlg := strings.Split(p.dialogView(), "\n")
		keep := max(1, p.height-1-len(dlg))
		lines = append(fill(lines, keep), dlg...)
	}
	body := strings.Join(lines, "\n")
	status := st.App.Status.Render(safetext.Truncate(safetext.SanitizeLine(p.status), p.width))
	if e := p.err + p.loadErr; e != "" {
		if p.err != "" && p.loadErr != "" {
			e = p.err + " · " + p.loadErr
		}
		status = st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(e), p.width))
	} else if !p.loaded {
		status = st.App.Status.Render("loading proposals…")
	}
	return body + "\n" + status
}

func (p curatePane) headerLine() string {
	st := p.c.styles
	switch p.mode {
	case modeControl:
		return st.App.Title.Render("CONTROL SAMPLE · judge verdicts hidden · ") + st.App.Muted.Render(safetext.Truncate(p.stats.String(), max(10, p.width-40)))
	case modeHistory:
		return st.App.Title.Render("BATCH HISTORY") + st.App.Muted.Render(safetext.Truncate(" · enter lists a batch's changes · u rolls it back · / filters", max(10, p.width-14)))
	case modeBatch:
		name := ""
		if p.changes != nil {
			name = p.changes.info.Batch
		}
		return st.App.Title.Render("BATCH ") + st.App.Muted.Render(safetext.Truncate(safetext.SanitizeLine(name)+" · its changes, before you roll it back", max(10, p.width-6)))
	case modeSuperseded:
		return st.App.Title.Render(fmt.Sprintf("SUPERSEDED %d", len(p.links.Links))) +
			st.App.Muted.Render(safetext.Truncate(fmt.Sprintf(" · links since the last review (%d in all) · u undoes one · m marks reviewed", p.links.All), max(10, p.width-14)))
	case modeHeld:
		return st.App.Title.Render(fmt.Sprintf("HELD CAPTURES %d", len(p.held))) +
			st.App.Muted.Render(" · needs_review: nothing is stored until you decide")
	}
	return p.queuesHeader()
}

// queuesHeader is the queues' header: a tab per kind with its count of
// open proposals, then what waits elsewhere (approved proposals, held
// captures, new supersession links). When the tabs do not fit the width
// (they take 101 cells), the empty ones other than the selected one fold
// into a count; the waiting counts shorten but stay.
func (p curatePane) queuesHeader() string {
	st := p.c.styles
	approved := 0
	for _, pr := range p.props {
		if pr.Status == engine.ProposalApproved {
			approved++
		}
	}
	var tabs, folded []headerPart
	tabsWidth, empty := 0, 0
	for i, kind := range curateKinds() {
		n := 0
		for _, pr := range p.props {
			if isOpen(pr) && queueKind(pr) == kind {
				n++
			}
		}
		label := fmt.Sprintf("%s %d", kind, n)
		tab := st.Tabs.Inactive.Render(label)
		if i == p.kindIdx {
			tab = st.Tabs.Active.Render(label)
		}
		tabs, tabsWidth = append(tabs, part(tab)), tabsWidth+safetext.Width(tab)
		switch {
		case i == p.kindIdx:
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
	if n := len(p.held); n > 0 {
		alerts = append(alerts, waiting(fmt.Sprintf("  %d held captures (v)", n), fmt.Sprintf("  %d held (v)", n)))
	}
	if n := len(p.links.Links); n > 0 {
		alerts = append(alerts, waiting(fmt.Sprintf("  %d new supersession link(s) (S)", n), fmt.Sprintf("  %d superseded (S)", n)))
	}
	shortest := 0
	for _, a := range alerts {
		shortest += safetext.Width(a.forms[len(a.forms)-1])
	}
	if tabsWidth+shortest <= p.width || empty == 0 {
		return fitHeader(p.width, append(tabs, alerts...))
	}
	more := st.App.Muted.Render(fmt.Sprintf(" +%d empty", empty))
	folded = append(folded, headerPart{forms: []string{more, ""}, rank: 0})
	return fitHeader(p.width, append(folded, alerts...))
}

func (p curatePane) listRows() int {
	return max(1, p.height-3-curateDetailLines-len(p.filterLines()))
}

func (p curatePane) memoryText(id int64) string {
	if m, ok := p.memories[id]; ok {
		return m.Content
	}
	return fmt.Sprintf("(memory %d not loaded)", id)
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

func (p curatePane) controlView() []string {
	st := p.c.styles
	items := p.controlItems()
	cols := layoutColumns([]column{{Title: "PROP", Width: 6, Right: true}, {Title: "MEM", Width: 6, Right: true}, {Title: "YOUR LABEL", Width: 22}, {Title: "MEMORY (judge the text; the verdict is hidden)"}}, p.width, 10)
	out := []string{st.Table.Header.Render(tableHeader(cols))}
	rows := p.listRows()
	from, to := p.window(p.cursor, p.top, len(items))
	for i := from; i < to; i++ {
		pr := items[i]
		pv, _ := curate.ParseProposalVerdict(pr)
		lbl := pv.CuratorLabel
		if lbl == "" {
			lbl = "—"
		}
		row := tableRow(cols, []string{fmt.Sprint(pr.ID), fmt.Sprint(pr.MemoryID), lbl, p.memoryText(pr.MemoryID)})
		if i == p.cursor {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	if len(items) == 0 {
		out = append(out, st.App.Muted.Render("no control sample: run `memtrace triage --type milestone` first"))
	}
	out = fill(out, rows+1)
	var detail []string
	if p.cursor < len(items) {
		pr := items[p.cursor]
		detail = append(detail, st.Detail.Heading.Render(fmt.Sprintf("── memory %d", pr.MemoryID)))
		for _, l := range wrapText(p.memoryText(pr.MemoryID), max(10, p.width-2), 4) {
			detail = append(detail, "  "+l)
		}
		detail = append(detail, st.App.Muted.Render("y keep · e echo · s role-play scene · t retype…"))
	}
	if p.stats.Labelled > 0 {
		detail = append(detail, st.Detail.Heading.Render(p.statsLine()))
	}
	return append(out, fill(detail, curateDetailLines)...)
}

func (p curatePane) statsLine() string {
	s := p.stats
	return fmt.Sprintf("agreement %.0f%% · Cohen's κ %.2f · false keeps %d · false quarantines %d · %d of %d labelled",
		100*s.Agreement, s.Kappa, s.FalseKeeps, s.FalseQuarantines, s.Labelled, s.Sample)
}

func (p curatePane) queueView() []string {
	st := p.c.styles
	queue := p.queue()
	cols := layoutColumns([]column{{Title: " ", Width: 1}, {Title: "PROP", Width: 6, Right: true}, {Title: "MEM", Width: 6, Right: true}, {Title: "STATUS", Width: 12}, {Title: "CONF", Width: 4, Right: true}, {Title: "FLAGS", Width: 10}, {Title: "MEMORY"}}, p.width, 10)
	out := append(p.filterLines(), st.Table.Header.Render(tableHeader(cols)))
	rows := p.listRows()
	from, to := p.window(p.cursor, p.top, len(queue))
	for i := from; i < to; i++ {
		pr := queue[i]
		mark := ""
		switch {
		case p.selected[pr.ID]:
			mark = "●"
		case p.inRange(i):
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
		row := tableRow(cols, []string{mark, fmt.Sprint(pr.ID), mem, pr.Status, confidenceCell(pr), flags, p.subject(pr)})
		switch {
		case i == p.cursor:
			row = st.Table.Selected.Render(row)
		case flags == "⚠ INJECT":
			row = st.App.Error.Render(row)
		}
		out = append(out, row)
	}
	if len(queue) == 0 {
		msg := "nothing in this queue (←/→ for the others)"
		if p.filter.input.Value() != "" {
			msg = "no proposal in this queue matches the filter (esc clears it)"
		}
		out = append(out, st.App.Muted.Render(msg))
	}
	out = fill(out, rows+1+len(p.filterLines()))
	return append(out, fill(p.detailView(queue), curateDetailLines)...)
}

// detailView is the selected proposal: the memory, the reason, the
// confidence, the flags (injection first, loudly) and the evidence of its
// kind.
func (p curatePane) detailView(queue []*engine.Proposal) []string {
	st := p.c.styles
	if p.cursor >= len(queue) {
		return nil
	}
	pr := queue[p.cursor]
	w := max(10, p.width-2)
	head := fmt.Sprintf("── proposal %d · %s", pr.ID, pr.Kind)
	if pr.TargetType != "" {
		head += " → " + pr.TargetType
	}
	head += fmt.Sprintf(" · by %s", pr.Proposer)
	if pr.Model != "" {
		head += " (" + pr.Model + ")"
	}
	out := []string{st.Detail.Heading.Render(safetext.Truncate(safetext.SanitizeLine(head), p.width))}
	fs := flagsOf(pr)
	if len(fs) > 0 && fs[0] == engine.FlagInjectionAttempt {
		out = append(out, st.App.Error.Render(safetext.Truncate("⚠ injection_attempt: this memory's text tries to instruct the judge — do not trust the verdict", p.width)))
	}
	if pr.Kind == engine.ProposalPromote {
		// No memory yet: the rule it would write, two lines at most so
		// that the occurrences below stay on screen.
		rule, edited := ruleWording(pr)
		label := "HOT rule "
		if edited {
			label = "HOT rule (edited) "
		}
		lines := wrapText(rule, max(10, w-safetext.Width(label)), 2)
		for i, l := range lines {
			if i == 0 {
				out = append(out, st.Detail.Label.Render(label)+st.Detail.Value.Render(l))
			} else {
				out = append(out, strings.Repeat(" ", safetext.Width(label))+st.Detail.Value.Render(l))
			}
		}
	} else {
		for _, l := range wrapText(p.memoryText(pr.MemoryID), w, 3) {
			out = append(out, "  "+l)
		}
	}
	out = append(out, st.Detail.Label.Render("reason ")+st.Detail.Value.Render(safetext.Truncate(safetext.SanitizeLine(curate.ShownReason(pr)), max(10, p.width-7))))
	meta := "no confidence: proposed by " + pr.Proposer + ", not a judge"
	if c := confidenceCell(pr); c != "—" {
		meta = "confidence " + c
	} else if pr.Proposer == engine.ProposerJudge {
		meta = "no confidence: the judge's answer did not validate"
	}
	if len(fs) > 0 {
		meta += " · flags " + strings.Join(fs, ", ")
	}
	out = append(out, st.Detail.Label.Render(safetext.Truncate(meta, p.width)))
	out = append(out, p.evidence(pr)...)
	return out
}

// evidence is kind-specific: occurrences for a promotion, the heartbeat's
// evidence (rule, last use, access count, importance, forecast, reach) for
// its moves and review notes, last use for other demotions and archives.
func (p curatePane) evidence(pr *engine.Proposal) []string {
	st := p.c.styles
	switch pr.Kind {
	case engine.ProposalPromote:
		var ev struct {
			Occurrences []engine.Occurrence `json:"occurrences"`
		}
		_ = json.Unmarshal(pr.Verdict, &ev)
		out := []string{st.Detail.Label.Render(fmt.Sprintf("seen %d time(s):", len(ev.Occurrences)))}
		for _, o := range ev.Occurrences {
			line := fmt.Sprintf("  %s %s: %s", o.At.UTC().Format("2006-01-02"), o.Session, o.Text)
			out = append(out, safetext.Truncate(safetext.SanitizeLine(line), p.width))
		}
		return out
	}
	if ev, ok := tiers.ParseLifecycleEvidence(pr); ok {
		line := fmt.Sprintf("rule %s · last used %s · used %d time(s) · importance %.2f · forecast %s · reach %d · score %.2f",
			ev.Rule, ev.LastUse.UTC().Format("2006-01-02"), ev.AccessCount, ev.Importance, ev.ForgetAt.UTC().Format("2006-01-02"), ev.Reach, ev.Score)
		if ev.Vital {
			line += " · vital"
		}
		return []string{st.Detail.Label.Render(safetext.Truncate(line, p.width))}
	}
	switch pr.Kind {
	case engine.ProposalDemote, engine.ProposalArchive:
		if m, ok := p.memories[pr.MemoryID]; ok {
			last := m.LastAccessedAt
			if last.IsZero() {
				last = m.CreatedAt
			}
			days := int(p.c.now().Sub(last).Hours() / 24)
			return []string{st.Detail.Label.Render(fmt.Sprintf("last used %s (%d days ago) · tier %s · used %d time(s)",
				last.UTC().Format("2006-01-02"), days, m.Tier, m.AccessCount))}
		}
	}
	return nil
}

func (p curatePane) historyView() []string {
	st := p.c.styles
	// BATCH fits "rollback:capture-20060102T150405Z-1234" whole: the
	// curator matches a rollback to its batch by name.
	cols := layoutColumns([]column{{Title: "BATCH", Width: 38}, {Title: "ACTOR", Width: 9}, {Title: "EFFECT", Width: 26},
		{Title: "AT", Width: 16}, {Title: "STATE"}}, p.width, 8)
	// Below 101 columns the row gives way: the batch name is cut (enter
	// shows it whole), the time loses its year, the state says only
	// whether u undoes the batch, and the effect takes what is left.
	narrow := p.width < 101
	if narrow {
		cols = []column{{Title: "BATCH", Width: 26}, {Title: "ACTOR", Width: 8}, {Title: "EFFECT"},
			{Title: "AT", Width: 11}, {Title: "STATE", Width: 11}}
		cols[2].Width = max(8, p.width-26-8-11-11-4)
	}
	out := append(p.filterLines(), st.Table.Header.Render(tableHeader(cols)))
	hist := p.history()
	from, to := p.window(p.histCur, p.histTop, len(hist))
	for i := from; i < to; i++ {
		b := hist[i]
		state := "applied"
		switch {
		case b.Kind == engine.BatchRollback:
			state = "rollback"
		case b.Effect.Rejected > 0:
			state = "rejection"
		}
		switch {
		case b.RolledBack:
			state = "rolled back"
		case b.CanRollback:
			state += " · u undoes"
		default:
			state += " · blocked"
		}
		at := b.At.UTC().Format("2006-01-02 15:04")
		if narrow {
			at = b.At.UTC().Format("01-02 15:04")
			switch {
			case b.RolledBack:
				state = "rolled back"
			case b.CanRollback:
				state = "u undoes"
			default:
				state = "blocked"
			}
		}
		row := tableRow(cols, []string{b.Batch, b.Actor, b.Effect.String(), at, state})
		if i == p.histCur {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	switch {
	case len(p.batches) == 0:
		out = append(out, st.App.Muted.Render("no batches yet"))
	case len(hist) == 0:
		out = append(out, st.App.Muted.Render("no batch matches the filter (esc clears it)"))
	}
	return fill(out, p.listRows()+1+len(p.filterLines())+curateDetailLines)
}

func (p curatePane) dialogView() string {
	st := p.c.styles
	d := p.dlg
	var b strings.Builder
	if d.kind == "wording" {
		return fitOverlay(st.Overlay, p.wordingView(), p.width)
	}
	if d.kind == "reject" {
		return fitOverlay(st.Overlay, p.rejectView(), p.width)
	}
	if d.kind == "retype" || d.kind == "store" {
		title := "Retype to:"
		if d.kind == "store" {
			title = fmt.Sprintf("Store held capture %d as:", d.target)
		}
		b.WriteString(st.App.Title.Render(title) + "\n")
		for i, t := range retypeTargets() {
			line := "  " + t
			if i == d.cursor {
				line = st.Table.Selected.Render("> " + t)
			}
			b.WriteString(line + "\n")
		}
		b.WriteString(st.App.Muted.Render("enter choose · esc cancel"))
	} else if d.kind == "rollback-force" {
		b.WriteString(st.App.Title.Render(safetext.SanitizeLine(d.text)) + "\n")
		b.WriteString(st.App.Muted.Render("Y roll back · esc/n cancel"))
	} else {
		b.WriteString(st.App.Title.Render(safetext.SanitizeLine(d.text)) + "\n")
		b.WriteString(st.App.Muted.Render("enter/y confirm · esc/n cancel"))
	}
	return fitOverlay(st.Overlay, b.String(), p.width)
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
