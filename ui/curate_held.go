package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/textable"
)

// The Curate tab's review queue (v): captures the judge held as
// needs_review. The curator stores one by hand under a label (a) or skips
// it (x); each decision is its own batch. Asking the judge again is
// `memtrace review retry`, which needs a judge the UI does not have.

// heldView lists the held captures with the selected one's text and why
// it was held.
type heldView struct {
	curateList[*engine.ReviewItem]
}

func newHeldView(c *common) heldView {
	return heldView{curateList: newCurateList[*engine.ReviewItem](c)}
}

func (v heldView) header() string {
	st := v.c.styles
	return st.App.Title.Render(fmt.Sprintf("HELD CAPTURES %d", len(v.list.rows))) +
		st.App.Muted.Render(" · needs_review: nothing is stored until you decide")
}

func (v heldView) keyBindings(k curateKeys) []key.Binding {
	var out []key.Binding
	if len(v.list.rows) > 0 {
		out = []key.Binding{k.StoreHeld, k.SkipHeld}
	}
	out = append(out, listMoves(len(v.list.rows), k.Up, k.Down)...)
	out = append(out, v.detailBindings(k.scroll, len(v.detail()))...)
	return append(out, k.Leave, k.Held, k.History, k.Control, k.Superseded, k.Reload)
}

func (v heldView) View() string {
	st := v.c.styles
	cols := textable.Fit([]textable.Column{{Title: "ID", Width: 5, Right: true}, {Title: "TRIES", Width: 5, Right: true, Drop: 2}, {Title: "MESSAGE", Width: 14, Min: 8, Drop: 1}, {Title: "TEXT"}}, v.width, textable.MinText)
	out := v.list.table(st, cols, func(_ int, it *engine.ReviewItem) ([]string, bool) {
		return []string{fmt.Sprint(it.ID), fmt.Sprint(it.Attempts), it.MessageID, it.Text}, false
	}, "no held captures: `ingest --judge` holds a message here when the judge's answer does not validate")
	return strings.Join(append(out, v.detailWindow(v.detail())...), "\n")
}

// detail is the selected held capture whole: its text and why it is held
// (J/K and the wheel scroll it when it is taller than its lines).
func (v heldView) detail() []string {
	st := v.c.styles
	var detail []string
	if it, ok := v.list.current(); ok {
		detail = append(detail, st.Detail.Heading.Render(fmt.Sprintf("── held capture %d · message %s · %s/%s", it.ID, it.MessageID, it.Session, it.Role)))
		for _, l := range wrapText(it.Text, max(10, v.width-2), 0) {
			detail = append(detail, "  "+l)
		}
		for _, l := range wrapText("why held: "+it.Reason, max(10, v.width-2), 0) {
			detail = append(detail, st.App.Error.Render("  "+l))
		}
		detail = append(detail, st.App.Muted.Render("a store as… · x skip · ask the judge again: memtrace review retry --all --judge MODEL"))
	}
	return detail
}

func (p curatePane) heldKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	cur, ok := p.held.list.current()
	switch {
	case key.Matches(msg, k.StoreHeld) && ok:
		p.dlg = &dialog{kind: "store", target: cur.ID, cursor: len(retypeTargets()) - 1} // "note" first
	case key.Matches(msg, k.SkipHeld) && ok:
		p.dlg = &dialog{kind: "skip", target: cur.ID,
			text: fmt.Sprintf("Skip held capture %d? Nothing is stored; it can still be stored later.", cur.ID)}
	}
	return p, nil
}

func (p curatePane) storeHeld(id int64, typ string) (curatePane, tea.Cmd) {
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return p.task(func() (string, error) {
		d, err := capture.StoreReviews(ctx, eng, []int64{id}, capture.ReviewChoice{Type: typ, Curator: curatorActor})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("held capture %d stored as memory %d (%s) in batch %s", id, d.Items[0].MemoryID, typ, d.Batch), nil
	})
}

func (p curatePane) skipHeld(id int64) (curatePane, tea.Cmd) {
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return p.task(func() (string, error) {
		d, err := capture.SkipReviews(ctx, eng, []int64{id}, "skipped in the Curate tab", curatorActor)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("held capture %d skipped in batch %s", id, d.Batch), nil
	})
}
