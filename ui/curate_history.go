package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// The Curate tab's batch history (H): the batches applied, newest first,
// each with what it did and whether u can roll it back; enter lists a
// batch's changes.

// historyStates are the states the history's state: field knows.
var historyStates = []string{"applied", "rollback", "rolled_back", "blocked", "undoable"}

// curateHistoryQuery is the batch history's filter: actor, kind (the
// batch's kind: capture, curator, apply, rollback…), state, and words of the
// batch id or its effect.
func curateHistoryQuery() rowQuery[engine.BatchInfo] {
	return rowQuery[engine.BatchInfo]{
		Fields: []filterField[engine.BatchInfo]{
			{Name: "actor", Match: func(b engine.BatchInfo, v string) bool { return strings.EqualFold(b.Actor, v) }},
			{Name: "kind", Match: func(b engine.BatchInfo, v string) bool {
				return strings.HasPrefix(strings.ToLower(b.Kind), v)
			}},
			{Name: "state", Values: historyStates, Match: func(b engine.BatchInfo, v string) bool {
				switch v {
				case "rollback":
					return b.Kind == engine.BatchRollback
				case "rolled_back":
					return b.RolledBack
				case "blocked":
					return !b.RolledBack && !b.CanRollback
				case "undoable":
					return b.CanRollback
				}
				return !b.RolledBack && b.Kind != engine.BatchRollback
			}},
		},
		Text: func(b engine.BatchInfo) string { return b.Batch + " " + curate.EffectText(b) },
	}
}

// historyView lists the batch history the filter lets through.
type historyView struct {
	curateList[engine.BatchInfo]
}

func newHistoryView(c *common) historyView {
	return historyView{curateList: newCurateList[engine.BatchInfo](c)}
}

// batches are the whole history, newest first.
func (v historyView) batches() []engine.BatchInfo { return v.list.all }

func (v historyView) header() string {
	st := v.c.styles
	return st.App.Title.Render("BATCH HISTORY") + st.App.Muted.Render(safetext.Truncate(" · enter lists a batch's changes · u rolls it back · / filters", max(10, v.width-14)))
}

// keyBindings are the view's keys, with the filter's and the list's.
func (v historyView) keyBindings(k curateKeys, filter, move []key.Binding) []key.Binding {
	var out []key.Binding
	n := len(v.list.rows)
	if n > 0 {
		out = []key.Binding{k.Changes, k.Rollback}
	}
	out = append(append(out, filter...), listMoves(n, move...)...)
	return append(out, k.Leave, k.History, k.Control, k.Held, k.Superseded, k.Reload)
}

func (v historyView) View() string {
	st := v.c.styles
	// BATCH fits "rollback:capture-20060102T150405Z-1234" whole: the
	// curator matches a rollback to its batch by name.
	cols := textable.Fill([]textable.Column{{Title: "BATCH", Width: 38}, {Title: "ACTOR", Width: 9}, {Title: "EFFECT", Width: 26},
		{Title: "AT", Width: 16}, {Title: "STATE"}}, v.width, 8)
	// Below 101 columns the row gives way: the batch name is cut (enter
	// shows it whole), the time loses its year, the state says only
	// whether u undoes the batch, and the effect takes what is left.
	narrow := v.width < 101
	if narrow {
		cols = []textable.Column{{Title: "BATCH", Width: 26}, {Title: "ACTOR", Width: 8}, {Title: "EFFECT"},
			{Title: "AT", Width: 11}, {Title: "STATE", Width: 11}}
		cols[2].Width = max(8, v.width-26-8-11-11-4)
	}
	empty := "no batch matches the filter (esc clears it)"
	if len(v.list.all) == 0 {
		empty = "no batches yet"
	}
	out := v.list.table(st, cols, func(_ int, b engine.BatchInfo) ([]string, bool) {
		state := "applied"
		switch {
		case b.Kind == engine.BatchRollback:
			state = "rollback"
		case b.Effect.Rejected > 0:
			state = "rejection"
		case b.Kind == curate.BatchPolicy:
			state = "policy"
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
		return []string{b.Batch, b.Actor, curate.EffectText(b), at, state}, false
	}, empty)
	return strings.Join(append(out, fill(nil, curateDetailLines)...), "\n")
}

func (p curatePane) historyKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	b, ok := p.hist.list.current()
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.Changes):
		return p.openChanges(b)
	case key.Matches(msg, k.Rollback):
		if b.RolledBack {
			p.status = "batch " + b.Batch + " was already rolled back"
			return p, nil
		}
		return p.planRollback(b.Batch)
	}
	return p, nil
}
