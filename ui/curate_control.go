package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// The Curate tab's control sample (c): proposals the curator labels blind
// (keep, echo, role-play scene, retype) before seeing any verdict, so that
// the judge's agreement with a curator can be measured.

// controlView lists the control sample with the selected memory's text
// and the agreement so far; the judge's verdicts stay hidden.
type controlView struct {
	curateList[*engine.Proposal]
	memories curateMemories
	stats    curate.ControlStats
}

func newControlView(c *common) controlView {
	return controlView{curateList: newCurateList[*engine.Proposal](c)}
}

// setProps takes the control items, labelled or not, in id order, out of
// the loaded proposals.
func (v controlView) setProps(props []*engine.Proposal, memories curateMemories) controlView {
	var items []*engine.Proposal
	for _, pr := range props {
		if pv, ok := curate.ParseProposalVerdict(pr); ok && pv.Control && isOpen(pr) {
			items = append(items, pr)
		}
	}
	v.list, v.memories, v.stats = v.list.setRows(items), memories, curate.ComputeControlStats(props)
	return v
}

// pending: there is a control sample and it is not labelled through.
func (v controlView) pending() bool { return len(v.list.rows) > 0 && !v.stats.Done() }

// next moves the cursor on to the next item (a label was given).
func (v controlView) next() controlView {
	v.list = v.list.moveTo(min(v.list.cursor+1, max(0, len(v.list.rows)-1)))
	return v
}

func (v controlView) header() string {
	st := v.c.styles
	return st.App.Title.Render("CONTROL SAMPLE · judge verdicts hidden · ") + st.App.Muted.Render(safetext.Truncate(v.stats.String(), max(10, v.width-40)))
}

func (v controlView) keyBindings(k curateKeys) []key.Binding {
	var out []key.Binding
	n := len(v.list.rows)
	if n > 0 {
		out = []key.Binding{k.LabelKeep, k.LabelEcho, k.LabelRoleplay, k.Retype}
	}
	out = append(out, listMoves(n, k.Up, k.Down)...)
	out = append(out, v.detailBindings(k.scroll, len(v.detail()))...)
	return append(out, k.Leave, k.Control, k.History, k.Reload)
}

func (v controlView) View() string {
	st := v.c.styles
	cols := textable.Fit([]textable.Column{{Title: "PROP", Width: 6, Right: true}, {Title: "MEM", Width: 6, Right: true, Drop: 1}, {Title: "YOUR LABEL", Width: 22, Min: 12}, {Title: "MEMORY (judge the text; the verdict is hidden)"}}, v.width, textable.MinText)
	out := v.list.table(st, cols, func(_ int, pr *engine.Proposal) ([]string, bool) {
		pv, _ := curate.ParseProposalVerdict(pr)
		lbl := pv.CuratorLabel
		if lbl == "" {
			lbl = "—"
		}
		return []string{fmt.Sprint(pr.ID), fmt.Sprint(pr.MemoryID), lbl, v.memories.text(pr.MemoryID)}, false
	}, "no control sample: run `memtrace triage --type milestone` first")
	return strings.Join(append(out, v.detailWindow(v.detail())...), "\n")
}

// detail is the selected memory whole and the agreement so far (J/K and
// the wheel scroll it when it is taller than its lines).
func (v controlView) detail() []string {
	st := v.c.styles
	var detail []string
	if pr, ok := v.list.current(); ok {
		detail = append(detail, st.Detail.Heading.Render(fmt.Sprintf("── memory %d", pr.MemoryID)))
		for _, l := range wrapText(v.memories.text(pr.MemoryID), max(10, v.width-2), 0) {
			detail = append(detail, "  "+l)
		}
		detail = append(detail, st.App.Muted.Render("y keep · e echo · s role-play scene · t retype…"))
	}
	if s := v.stats; s.Labelled > 0 {
		detail = append(detail, st.Detail.Heading.Render(fmt.Sprintf("agreement %.0f%% · Cohen's κ %.2f · false keeps %d · false quarantines %d · %d of %d labelled",
			100*s.Agreement, s.Kappa, s.FalseKeeps, s.FalseQuarantines, s.Labelled, s.Sample)))
	}
	return detail
}

func (p curatePane) controlKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.LabelKeep):
		return p.label(engine.TriageKeep)
	case key.Matches(msg, k.LabelEcho):
		return p.label(engine.TriageEcho)
	case key.Matches(msg, k.LabelRoleplay):
		return p.label(engine.TriageRoleplay)
	case key.Matches(msg, k.Retype):
		if pr, ok := p.control.list.current(); ok {
			p.dlg = &dialog{kind: "retype", control: true, target: pr.ID}
		}
	}
	return p, nil
}
