package ui

import (
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// TraceOrigin says which recall a trace opened from another tab is: a
// golden probe's, on which database, at what time. The Trace header shows
// it, so a trace never passes for another database's.
type TraceOrigin struct {
	Set   string    // the set file
	Probe string    // the probe's id
	At    time.Time // the probe's time
	// DB names the database the trace recalls from ("fixture
	// testdata/demo.jsonl + demo.quarantine", "the open database x.db").
	DB string
	// Run: the trace is the one the probe's run made.
	Run bool
	// NotItsRun: the set runs on a fixture, and this trace is of the open
	// database (the set has not been run yet).
	NotItsRun bool
}

// label is the origin line of the Trace header; stepped: the shown recall
// is at another time than the probe's (the time override moved).
func (o TraceOrigin) label(stepped bool) string {
	at := o.At.UTC().Format("2006-01-02 15:04 UTC")
	switch {
	case o.Run && stepped:
		return "probe " + o.Probe + "'s database, stepped from its time " + at + " · " + o.DB + " · set " + displayPath(o.Set)
	case o.Run:
		return "probe " + o.Probe + "'s own run at " + at + " · " + o.DB + " · set " + displayPath(o.Set)
	case o.NotItsRun:
		return "probe " + o.Probe + " at " + at + " on " + o.DB + ", NOT its run on the set's fixture (Golden: r runs it)"
	}
	return "probe " + o.Probe + " at " + at + " · " + o.DB + " · set " + displayPath(o.Set)
}

// TraceFocus is the stage and item a trace opens on (a failing probe's
// lost memory).
type TraceFocus struct {
	Stage, Item int
}

// headerLines is the number of lines above the stage list: the query, the
// time and, for a trace opened from a probe, its origin (one or two lines).
func (p tracePane) headerLines() int {
	return 2 + len(p.originLines())
}

// originLines is the origin of a trace opened from a probe, wrapped at its
// " · " parts into at most two lines, so that the probe, its time and the
// database show at 80 columns too.
func (p tracePane) originLines() []string {
	if p.origin == nil {
		return nil
	}
	st := p.c.styles
	label := p.origin.label(p.trace != nil && !p.trace.At.Equal(p.origin.At))
	style := st.Filter.Chip
	if p.fx.Closed() {
		label = "closed: a newer run replaced that database · " + label
		style = st.App.Error
	}
	lines := wrapParts(strings.Split(safetext.SanitizeLine(label), " · "), " · ", max(10, p.width), 2)
	for i, l := range lines {
		lines[i] = style.Render(safetext.Truncate(l, p.width))
	}
	return lines
}

// engine is what the pane recalls from: the fixture database of the probe
// it came from, else the open database.
func (p tracePane) engine() (*engine.Engine, string) {
	if p.fx != nil {
		if p.fx.Closed() {
			return nil, "the fixture database of that run is closed (a newer Golden run replaced it): open the probe again from the Golden tab"
		}
		return p.fx.eng, ""
	}
	return p.c.deps.Engine, ""
}

// openGiven shows a trace another tab already has (a probe's run) at focus.
func (p tracePane) openGiven(tr *engine.Trace, focus *TraceFocus) tracePane {
	p.seq++ // a recall still in flight must not replace it
	p.loading = false
	p.trace, p.cmp, p.split, p.err, p.pol = tr, nil, false, "", nil
	p.itemOpen, p.prompt = false, false
	p.item, p.itemTop = 0, 0
	switch {
	case focus != nil && focus.Stage < len(tr.Stages):
		p.stage, p.item, p.focus = focus.Stage, focus.Item, focusItems
	case len(tr.Survivors) == 0:
		p.stage = lastDropStage(tr, len(engine.StageNames)-1)
	default:
		p.stage = len(engine.StageNames) - 1
	}
	return p.clampItems()
}
