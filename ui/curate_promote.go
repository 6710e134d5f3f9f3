package ui

import (
	"fmt"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// Promotions in the Curate tab: a promote proposal has no memory yet, only
// a lesson and the HOT rule it would become. Approving one opens the rule's
// wording for editing first; the apply (P) then writes exactly that text.

// maxRuleChars matches the engine's limit on a HOT rule.
const maxRuleChars = 200

// ruleWording is the HOT rule a promote proposal would write, and whether
// it is the curator's edit.
func ruleWording(pr *engine.Proposal) (string, bool) {
	ev, err := engine.ParsePromotion(pr)
	if err != nil {
		return "(no lesson: re-run the heartbeat)", false
	}
	return ev.RuleWording(), ev.CuratorWording != ""
}

// subject is what a queue row shows: the memory's text, or for a promotion
// the rule it would write.
func (p curatePane) subject(pr *engine.Proposal) string {
	if pr.Kind == engine.ProposalPromote {
		w, _ := ruleWording(pr)
		return "HOT rule: " + w
	}
	if pr.Kind == curate.ProposalAdd {
		return "new " + pr.TargetType + " line: " + curate.MarkdownProposalText(pr)
	}
	return p.memoryText(pr.MemoryID)
}

// editWording opens the wording editor of a promote proposal, filled with
// the rule as it stands (control sequences neutralised: the rule is read by
// an agent every turn).
func (p curatePane) editWording(pr *engine.Proposal) (curatePane, tea.Cmd) {
	if pr.Status == engine.ProposalReview {
		p.status = fmt.Sprintf("proposal %d needs review; reject it or re-run the heartbeat", pr.ID)
		return p, nil
	}
	w, _ := ruleWording(pr)
	in := textinput.New()
	in.Prompt = "HOT rule › "
	in.CharLimit = maxRuleChars
	in.SetStyles(p.c.styles.Input)
	in.SetWidth(max(10, p.width-len(in.Prompt)-6))
	shown := safetext.SanitizeLine(w)
	in.SetValue(shown)
	cmd := in.Focus()
	p.dlg = &dialog{kind: "wording", target: pr.ID, input: in, original: w, shown: shown,
		text: fmt.Sprintf("Approve promotion %d with this wording? Edit it, enter approves, esc cancels.", pr.ID)}
	return p, cmd
}

// wordingKey edits the wording; enter approves with it, esc cancels.
func (p curatePane) wordingKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	d := *p.dlg
	switch msg.String() {
	case "esc":
		p.dlg = nil
		p.status = "cancelled"
		return p, nil
	case "enter":
		p.dlg = nil
		wording := d.input.Value()
		if wording == d.shown {
			// Unedited: the stand-ins (␛, ⟨RLO⟩) were only how the
			// editor showed the text; the rule keeps the wording itself.
			wording = d.original
		}
		return p.approvePromotion(d.target, wording)
	case "ctrl+o":
		// The whole wording in $EDITOR; what was over the limit last
		// time comes back to be shortened.
		return p.editDraft(d, editWording)
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	p.dlg = &d
	return p, cmd
}

func (p curatePane) approvePromotion(id int64, wording string) (curatePane, tea.Cmd) {
	ctx, w, now := p.c.ctx, p.c.writer(), p.c.now()
	return p.task(func() (string, error) {
		if err := curate.ApprovePromotion(ctx, w, id, wording, curatorActor, now); err != nil {
			return "", err
		}
		return fmt.Sprintf("approved promotion %d (P applies)", id), nil
	})
}

// wordingView is the editor dialog.
func (p curatePane) wordingView() string {
	st := p.c.styles
	d := p.dlg
	n := len([]rune(d.input.Value()))
	return st.App.Title.Render(safetext.SanitizeLine(d.text)) + "\n" +
		d.input.View() + "\n" +
		st.App.Muted.Render(fmt.Sprintf("%d/%d characters · enter approve · esc cancel · ctrl+o edit in $EDITOR", n, maxRuleChars))
}
