package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/inspector"
)

// The Trace tab's recalls (in commands), the stored-trace picker and the
// whole-item view's keys.

// run starts a read-only recall of the current query at the override (and
// now, for the split view) in a tea.Cmd; the reply names its request so a
// slow older run cannot overwrite a newer one.
func (p tracePane) run() (tracePane, tea.Cmd) {
	if strings.TrimSpace(p.q.Text) == "" {
		p.err = "type a query first: press / (or i), write it, then enter"
		return p, nil
	}
	eng, why := p.engine()
	if eng == nil {
		p.err = why
		return p, nil
	}
	now := p.c.now()
	q := p.q
	q.ReadOnly = true
	q.At = p.override.at(now)
	split := p.split && !p.override.isNow()
	p.seq++
	p.loading = true
	seq, ctx := p.seq, p.c.ctx
	return p, func() tea.Msg {
		return send(paneTrace, recallBoth(ctx, eng, q, now, split, seq))
	}
}

// recallBoth runs the recall at q.At and, for the split view, compares it
// with the same recall now — through inspector.Compare, as `memtrace
// compare` does. It picks up what other processes (an agent through MCP)
// wrote first.
func recallBoth(ctx context.Context, eng *engine.Engine, q engine.Query, now time.Time, split bool, seq int) traceResultMsg {
	if err := eng.Refresh(ctx); err != nil {
		return traceResultMsg{Seq: seq, Err: err}
	}
	if split {
		c, err := inspector.Compare(ctx, eng, q, now, q.At)
		if err != nil {
			return traceResultMsg{Seq: seq, Err: err}
		}
		return traceResultMsg{Seq: seq, Trace: c.B, Cmp: c}
	}
	tr, err := inspector.Recall(ctx, eng, q)
	if err != nil {
		return traceResultMsg{Seq: seq, Err: err}
	}
	return traceResultMsg{Seq: seq, Trace: tr}
}

func (p tracePane) openPicker() (tracePane, tea.Cmd) {
	store := p.c.deps.Store
	p.picker = p.picker.opening()
	ctx := p.c.ctx
	return p, func() tea.Msg {
		ts, err := store.FindTraces(ctx, storedTraceLimit)
		return send(paneTrace, storedTracesMsg{Traces: ts, Err: err})
	}
}

// openStored shows a stored trace the picker chose.
func (p tracePane) openStored(st *engine.StoredTrace) (tracePane, tea.Cmd) {
	var tr engine.Trace
	if err := json.Unmarshal(st.Trace, &tr); err != nil {
		p.err = fmt.Sprintf("stored trace %d cannot be read: %v", st.ID, err)
		return p, nil
	}
	p.picker.open = false
	p.err = ""
	p.trace, p.cmp, p.split, p.pol = &tr, nil, false, nil
	p.origin, p.fx, p.mark = nil, nil, nil
	p.source = fmt.Sprintf("stored trace #%d · %s · %s", st.ID, st.Source, st.CreatedAt.UTC().Format("2006-01-02 15:04"))
	// Stepping the time from here re-runs the same query live (read-only).
	p.q = engine.Query{Text: tr.Query, Session: tr.Session, Project: tr.Project, K: tr.K, Budget: tr.Budget}
	p.query.SetValue(tr.Query)
	p.override = timeOverride{custom: tr.At.UTC()}
	p.item, p.itemTop = 0, 0
	return p.clampItems(), nil
}

// handleOpenItemKey: the keys of the whole-item view.
func (p tracePane) handleOpenItemKey(msg tea.KeyPressMsg) (tracePane, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.CloseItem):
		p.itemOpen = false
	case key.Matches(msg, k.ToMemory):
		items := p.stageItems()
		if p.item < len(items) && items[p.item].Key != "" {
			key := items[p.item].Key
			p.itemOpen = false
			return p, func() tea.Msg { return OpenMemoryMsg{Key: key} }
		}
	case key.Matches(msg, k.list.Top):
		p.openScroll = detailScroll{}
	default:
		p.openScroll, _ = p.openScroll.update(msg, lineScrollKeys(k.list), len(p.openItemBody()), p.bodyRows()-1)
	}
	return p, nil
}

// lastDropStage is the last stage that dropped items (where the last
// candidates died), or def when none did.
func lastDropStage(t *engine.Trace, def int) int {
	for i := len(t.Stages) - 1; i >= 0; i-- {
		if droppedCount(t.Stages[i]) > 0 {
			return i
		}
	}
	return def
}
