package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// tracePicker is the Trace tab's list of stored traces (o): the recalls
// an agent made through MCP, newest first, in the right column while it
// is open.
type tracePicker struct {
	c             *common
	keys          traceKeys
	open, loading bool
	traces        []*engine.StoredTrace
	cursor        int
	width, height int
}

func newTracePicker(c *common, k traceKeys) tracePicker { return tracePicker{c: c, keys: k} }

// SetSize gives the list the right column: w cells by h lines.
func (t tracePicker) SetSize(w, h int) tracePicker {
	t.width, t.height = w, h
	return t
}

// opening shows the picker empty while the stored traces load.
func (t tracePicker) opening() tracePicker {
	t.open, t.loading, t.traces = true, true, nil
	return t
}

// loaded shows the stored traces from the first; a failed load closes
// the picker.
func (t tracePicker) loaded(msg storedTracesMsg) tracePicker {
	t.loading = false
	if msg.Err != nil {
		t.open = false
		return t
	}
	t.traces, t.cursor = msg.Traces, 0
	return t
}

// Update moves the cursor or closes the picker; enter picks the trace
// under the cursor (the picker stays open until the pane has read it).
func (t tracePicker) Update(msg tea.KeyPressMsg) (tracePicker, *engine.StoredTrace) {
	k := t.keys
	switch {
	case key.Matches(msg, k.Cancel):
		t.open = false
	case key.Matches(msg, k.list.Up):
		t.cursor = max(0, t.cursor-1)
	case key.Matches(msg, k.list.Down):
		t.cursor = max(0, min(len(t.traces)-1, t.cursor+1))
	case key.Matches(msg, k.Pick) && t.cursor < len(t.traces):
		return t, t.traces[t.cursor]
	}
	return t, nil
}

// keyBindings are only what acts on the list as it is (it may be empty).
func (t tracePicker) keyBindings() []key.Binding {
	k := t.keys
	out := []key.Binding{k.Cancel}
	if len(t.traces) > 0 {
		out = append([]key.Binding{k.Pick}, out...)
	}
	if len(t.traces) > 1 {
		out = append(out, k.list.Up, k.list.Down)
	}
	return out
}

// View is the column's lines: a heading, then the stored traces around
// the cursor (at most height lines).
func (t tracePicker) View() []string {
	st := t.c.styles
	rw, n := t.width, t.height
	out := []string{st.Detail.Heading.Render(safetext.Truncate("stored traces — recalls an agent made (MCP), newest first · enter opens · esc closes", rw))}
	if t.loading {
		return append(out, st.App.Muted.Render("loading…"))
	}
	if len(t.traces) == 0 {
		return append(out, st.App.Muted.Render(safetext.Truncate("no stored traces yet: recalls made through `memtrace mcp` (memory_recall) are kept here", rw)))
	}
	cols := textable.Fit([]textable.Column{{Title: "#", Width: 5, Right: true}, {Title: "SOURCE", Width: 6, Drop: 1}, {Title: "WHEN", Width: 16}, {Title: "SESSION", Width: 8, Min: 6, Drop: 2}, {Title: "QUERY"}}, rw, textable.MinText)
	out = append(out, st.Table.Header.Render(textable.Header(cols)))
	start := max(0, min(t.cursor-(n-3), len(t.traces)-(n-2)))
	for i := start; i < len(t.traces) && len(out) < n; i++ {
		tr := t.traces[i]
		row := textable.Row(cols, []string{fmt.Sprint(tr.ID), tr.Source, tr.CreatedAt.UTC().Format("2006-01-02 15:04"), tr.Session, tr.Query})
		if i == t.cursor {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	return out
}
