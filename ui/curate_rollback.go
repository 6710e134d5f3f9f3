package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
)

// Rolling a batch back from the Curate history: `u` asks the store what the
// rollback would do (engine.PlanRollback, in a Cmd), the dialog says it by
// kind — "quarantine 141 memories" — and a large capture batch needs a
// second, different key (Y) before anything is written.

type rollbackPlanMsg struct {
	Plan *engine.RollbackPlan
	Err  error
}

func (p curatePane) planRollback(batch string) (curatePane, tea.Cmd) {
	st := p.c.deps.Store
	if st == nil {
		p.err = "no store: open the UI on a database"
		return p, nil
	}
	ctx := p.c.ctx
	p.status = "what would rolling back " + batch + " do…"
	return p, func() tea.Msg {
		plan, err := curate.PlanRollback(ctx, st, batch)
		return send(paneCurate, rollbackPlanMsg{Plan: plan, Err: err})
	}
}

func (p curatePane) planned(msg rollbackPlanMsg) (curatePane, tea.Cmd) {
	if msg.Err != nil {
		p.err, p.status = engine.ErrorMessage(msg.Err), ""
		return p, nil
	}
	pl := msg.Plan
	switch {
	case pl.RolledBack:
		p.status = "batch " + pl.Batch + " was already rolled back"
		return p, nil
	case len(pl.Blocked) > 0:
		p.err = fmt.Sprintf("cannot roll back %s: changed after it: %s; roll those changes back first", pl.Batch, pl.Blocked[0])
		return p, nil
	case !pl.CanRollback():
		p.err = fmt.Sprintf("rolling back %s would change nothing", pl.Batch)
		return p, nil
	}
	p.err, p.status = "", ""
	p.dlg = &dialog{kind: "rollback", batch: pl.Batch, plan: pl,
		text: fmt.Sprintf("Roll back batch %s by %s (%s)? This will %s.", pl.Batch, pl.Actor, pl.At.UTC().Format("2006-01-02 15:04"), wording.RollbackPlan(pl))}
	return p, nil
}

// forceDialog is the second confirmation of a large rollback.
func forceDialog(pl *engine.RollbackPlan) *dialog {
	return &dialog{kind: "rollback-force", batch: pl.Batch, plan: pl,
		text: fmt.Sprintf("Batch %s is a whole capture run: rolling it back will %s. Press Y (shift+y) to roll it back; n or esc cancels.",
			pl.Batch, wording.RollbackPlan(pl))}
}

// forceKey takes only Y as yes: enter and y, which confirmed the first
// dialog, do nothing here.
func (p curatePane) forceKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	d := p.dlg
	switch msg.String() {
	case "Y":
		p.dlg = nil
		return p.rollback(d.batch)
	case "esc", "n", "N", "q":
		p.dlg = nil
		p.status = "cancelled"
	}
	return p, nil
}
