package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/engine"
)

// The Curate tab's review queue (v): captures the judge held as
// needs_review. The curator stores one by hand under a label (a) or skips
// it (x); each decision is its own batch. Asking the judge again is
// `memtrace review retry`, which needs a judge the UI does not have.

func (p curatePane) heldKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	var cur *engine.ReviewItem
	if p.heldCur < len(p.held) {
		cur = p.held[p.heldCur]
	}
	if p.navigate(msg) {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.StoreHeld) && cur != nil:
		p.dlg = &dialog{kind: "store", target: cur.ID, cursor: len(retypeTargets()) - 1} // "note" first
	case key.Matches(msg, k.SkipHeld) && cur != nil:
		p.dlg = &dialog{kind: "skip", target: cur.ID,
			text: fmt.Sprintf("Skip held capture %d? Nothing is stored; it can still be stored later.", cur.ID)}
	}
	return p, nil
}

func (p curatePane) storeHeld(id int64, typ string) (curatePane, tea.Cmd) {
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return p.task(func() (string, error) {
		if eng == nil {
			return "", engine.Errorf(engine.EUNAVAIL, "storing needs the engine; use `memtrace review store %d --type %s`", id, typ)
		}
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
		if eng == nil {
			return "", engine.Errorf(engine.EUNAVAIL, "skipping needs the engine; use `memtrace review skip %d`", id)
		}
		d, err := capture.SkipReviews(ctx, eng, []int64{id}, "skipped in the Curate tab", curatorActor)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("held capture %d skipped in batch %s", id, d.Batch), nil
	})
}

func (p curatePane) heldView() []string {
	st := p.c.styles
	cols := layoutColumns([]column{{Title: "ID", Width: 5, Right: true}, {Title: "TRIES", Width: 5, Right: true}, {Title: "MESSAGE", Width: 14}, {Title: "TEXT"}}, p.width, 10)
	out := []string{st.Table.Header.Render(tableHeader(cols))}
	rows := p.listRows()
	from, to := p.window(p.heldCur, p.heldTop, len(p.held))
	for i := from; i < to; i++ {
		it := p.held[i]
		row := tableRow(cols, []string{fmt.Sprint(it.ID), fmt.Sprint(it.Attempts), it.MessageID, it.Text})
		if i == p.heldCur {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	if len(p.held) == 0 {
		out = append(out, st.App.Muted.Render("no held captures: `ingest --judge` holds a message here when the judge's answer does not validate"))
	}
	out = fill(out, rows+1)
	var detail []string
	if p.heldCur < len(p.held) {
		it := p.held[p.heldCur]
		detail = append(detail, st.Detail.Heading.Render(fmt.Sprintf("── held capture %d · message %s · %s/%s", it.ID, it.MessageID, it.Session, it.Role)))
		for _, l := range wrapText(it.Text, max(10, p.width-2), 3) {
			detail = append(detail, "  "+l)
		}
		for _, l := range wrapText("why held: "+it.Reason, max(10, p.width-2), 2) {
			detail = append(detail, st.App.Error.Render("  "+l))
		}
		detail = append(detail, st.App.Muted.Render("a store as… · x skip · ask the judge again: memtrace review retry --all --judge MODEL"))
	}
	return append(out, fill(detail, curateDetailLines)...)
}
