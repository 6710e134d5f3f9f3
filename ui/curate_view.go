package ui

import (
	"fmt"
	"strings"

	"memtrace/internal/safetext"
)

// curateDetailLines is the height of the selected proposal's detail.
const curateDetailLines = 9

func (p curatePane) View() string {
	p = p.sized()
	if p.erase != nil {
		return p.eraseViewLines()
	}
	st := p.c.styles
	var lines []string
	view := p.view()
	lines = append(lines, view.header())
	lines = append(lines, p.filterLines()...)
	lines = append(lines, strings.Split(view.View(), "\n")...)
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

// curateView is a Curate view as the pane draws it: its header line and
// its lines below (the filter bar goes between them).
type curateView interface {
	header() string
	View() string
}

// view is the current view.
func (p curatePane) view() curateView {
	switch p.mode {
	case modeControl:
		return p.control
	case modeHistory:
		return p.hist
	case modeHeld:
		return p.held
	case modeBatch:
		return p.batch
	case modeSuperseded:
		return p.sup
	}
	return p.queues
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
			if t == d.current {
				t += " (current)"
			}
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
