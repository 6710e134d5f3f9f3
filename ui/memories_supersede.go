package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// Linking supersession by hand in the Memories tab, as `memtrace supersede
// OLD NEW` does: s on a memory starts a link from it; the curator moves
// (or filters) to the other memory and presses enter; a confirmation names
// which is the former fact and which the newer one (the older by creation
// time first; w swaps them) and enter links them through the engine
// (engine.Supersede: audited, a curator batch of its own, u undoes it). s
// on a memory that is superseded offers to unlink it (engine.Unsupersede).

type supersedeKeys struct {
	Supersede, Choose, CancelLink, Swap, Yes, No key.Binding
}

func defaultSupersedeKeys() supersedeKeys {
	return supersedeKeys{
		Supersede:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "link/unlink supersession…")),
		Choose:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "link with this memory")),
		CancelLink: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel link")),
		Swap:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "swap older/newer")),
		Yes:        key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter/y", "confirm")),
		No:         key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("esc/n", "cancel")),
	}
}

// supersedeDialog is the open confirmation: link older to newer, or (with
// no newer) unlink older.
type supersedeDialog struct {
	older, newer *engine.Memory
}

// supersedeBindings are the keys while a link is being made.
func (p memoriesPane) supersedeBindings() []key.Binding {
	k := p.keys.sup
	switch {
	case p.supDlg != nil && p.supDlg.newer != nil:
		return []key.Binding{k.Yes, k.Swap, k.No}
	case p.supDlg != nil:
		return []key.Binding{k.Yes, k.No}
	case p.linkFrom != nil:
		return []key.Binding{k.Choose, k.CancelLink, p.keys.Filter}
	}
	return nil
}

// startSupersede is s on the selected memory.
func (p memoriesPane) startSupersede() (memoriesPane, tea.Cmd) {
	m, ok := p.list.selected()
	if !ok {
		return p, nil
	}
	if m.SupersededBy != 0 {
		p.supDlg = &supersedeDialog{older: m}
		return p, nil
	}
	p.linkFrom = m
	p.status = ""
	return p, nil
}

// chooseOther is enter in link mode: the selected memory is the other end.
func (p memoriesPane) chooseOther() (memoriesPane, tea.Cmd) {
	m, ok := p.list.selected()
	if !ok {
		return p, nil
	}
	from := p.linkFrom
	if m.ID == from.ID {
		p.status = fmt.Sprintf("memory %d cannot supersede itself: select another memory", m.ID)
		return p, nil
	}
	older, newer := from, m
	if newer.CreatedAt.Before(older.CreatedAt) || newer.CreatedAt.Equal(older.CreatedAt) && newer.ID < older.ID {
		older, newer = newer, older
	}
	p.supDlg = &supersedeDialog{older: older, newer: newer}
	return p, nil
}

// supersedeKey handles a key while the confirmation is open.
func (p memoriesPane) supersedeKey(msg tea.KeyPressMsg) (memoriesPane, tea.Cmd) {
	k := p.keys.sup
	d := *p.supDlg
	switch {
	case key.Matches(msg, k.Swap) && d.newer != nil:
		d.older, d.newer = d.newer, d.older
		p.supDlg = &d
	case key.Matches(msg, k.No):
		p.supDlg, p.linkFrom = nil, nil
		p.status = "cancelled: nothing was linked or unlinked"
	case key.Matches(msg, k.Yes):
		p.supDlg, p.linkFrom = nil, nil
		return p.writeSupersede(d)
	}
	return p, nil
}

// writeSupersede links or unlinks through the engine; the answer is a
// curatedMsg, so the batch joins the undo stack.
func (p memoriesPane) writeSupersede(d supersedeDialog) (memoriesPane, tea.Cmd) {
	eng := p.c.deps.Engine
	action, id := "supersede", d.older.ID
	if d.newer == nil {
		action = "unsupersede"
	}
	if eng == nil {
		p.err = fmt.Sprintf("%s needs the engine; use `memtrace supersede %d …`", action, id)
		return p, nil
	}
	ctx := p.c.ctx
	p.writes++
	p.status = fmt.Sprintf("%s #%d…", action, id)
	return p, func() tea.Msg {
		var batch string
		var err error
		if d.newer == nil {
			_, batch, err = capture.Unsupersede(ctx, eng, id, engine.Actor{Name: curatorActor})
		} else {
			_, batch, err = capture.Supersede(ctx, eng, id, d.newer.ID, time.Time{}, engine.Actor{Name: curatorActor})
		}
		return send(paneMemories, curatedMsg{Action: action, ID: id, Batch: batch, Changed: err == nil, Err: err})
	}
}

// supersedeLines is the link mode's prompt or the confirmation, drawn at
// the bottom of the pane above the status line.
func (p memoriesPane) supersedeLines() []string {
	st := p.c.styles
	w := max(10, p.width-4)
	quote := func(m *engine.Memory) string {
		return fmt.Sprintf("#%d %q", m.ID, safetext.Truncate(safetext.SanitizeLine(m.Content), max(10, w/2-8)))
	}
	var body []string
	switch {
	case p.supDlg != nil && p.supDlg.newer == nil:
		d := p.supDlg
		body = []string{
			st.App.Title.Render(safetext.Truncate(fmt.Sprintf("Unlink memory %s from #%d?", quote(d.older), d.older.SupersededBy), w)),
			"It is current again (recall no longer drops it); u undoes the unlink.",
			st.App.Muted.Render("enter/y unlink · esc/n cancel"),
		}
	case p.supDlg != nil:
		d := p.supDlg
		body = []string{
			st.App.Title.Render(safetext.Truncate("Link: former "+quote(d.older), w)),
			st.App.Title.Render(safetext.Truncate("  superseded by newer "+quote(d.newer), w)),
			safetext.Truncate(fmt.Sprintf("valid to %s (when #%d was recorded); audited in a batch of its own, u undoes it", d.newer.CreatedAt.UTC().Format("2006-01-02"), d.newer.ID), w),
			st.App.Muted.Render("enter/y link · w swap older/newer · esc/n cancel"),
		}
	case p.linkFrom != nil:
		return []string{st.Status.Active.Render(safetext.Truncate(fmt.Sprintf("linking #%d: select the other memory (/ filters) and press enter · esc cancels", p.linkFrom.ID), p.width))}
	default:
		return nil
	}
	return strings.Split(fitOverlay(st.Overlay, strings.Join(body, "\n"), p.width), "\n")
}

// supersedeHeight is how many lines the link prompt or the confirmation
// takes from the list.
func (p memoriesPane) supersedeHeight() int {
	return len(p.supersedeLines())
}

// setSupersede re-lays the list out after the link state changed.
func (p memoriesPane) relayout() memoriesPane {
	p.list.setVisible(p.listRows())
	return p
}
