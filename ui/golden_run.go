package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/golden"
)

// The Golden tab's I/O: every function here returns a tea.Cmd; nothing
// reads a file or runs a recall inside Update.

// loadDefaultSet opens path when it exists; otherwise the tab asks for a
// path.
func loadDefaultSet(path string) tea.Cmd {
	return func() tea.Msg {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return send(paneGolden, goldenSetMsg{Missing: true})
		}
		return readSet(path)
	}
}

func loadSet(path string) tea.Cmd {
	return func() tea.Msg { return readSet(path) }
}

// readSet loads a set and the baseline beside it (<set>.baseline.json),
// when there is one.
func readSet(path string) tea.Msg {
	set, err := golden.Load(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = engine.Errorf(engine.ENOTFOUND, "no golden set at %s; check the path (relative to the directory memtrace runs in)", path)
		}
		return send(paneGolden, goldenSetMsg{Path: path, Err: err})
	}
	msg := goldenSetMsg{Path: path, Set: set, BasePath: golden.BaselinePath(path)}
	if _, err := os.Stat(msg.BasePath); err == nil {
		msg.Base, msg.BaseErr = golden.LoadRun(msg.BasePath)
	}
	return send(paneGolden, msg)
}

func loadBaseline(path string) tea.Cmd {
	return func() tea.Msg {
		run, err := golden.LoadRun(path)
		return send(paneGolden, goldenBaselineMsg{Path: path, Run: run, Err: err})
	}
}

// startRun runs every probe of the set in a Cmd: against a fresh database
// built from the set's fixture (as `golden run` does), or against the open
// database when the set has none. Progress streams through a channel that
// waitGolden drains, one message at a time; esc cancels the context.
func (p goldenPane) startRun() (goldenPane, tea.Cmd) {
	if p.running {
		return p, nil
	}
	set := p.set
	if set == nil {
		p.err = "no golden set loaded: o opens one"
		return p, nil
	}
	open, eng := p.c.deps.OpenStore, p.c.deps.Engine
	switch {
	case set.Fixture != "" && open == nil:
		p.err = fmt.Sprintf("set %s builds a fixture database, and this UI was started without a database opener; run `memtrace golden run %s`", set.Name, p.setPath)
		return p, nil
	case set.Fixture == "" && eng == nil:
		p.err = fmt.Sprintf("set %s runs against the open database, and none is open; start memtrace with --db PATH", set.Name)
		return p, nil
	}
	ctx, cancel := context.WithCancel(p.c.ctx)
	p.seq++
	seq := p.seq
	events := make(chan goldenProgressMsg, 16)
	p.running, p.cancel, p.events = true, cancel, events
	p.fixture, p.done, p.total = set.Fixture != "", 0, len(set.Probes)
	p.err, p.status = "", ""
	p.bar = p.newBar()
	now := p.c.now
	run := func() tea.Msg {
		defer close(events)
		defer cancel()
		start := time.Now()
		emit := func(m goldenProgressMsg) {
			select {
			case events <- m:
			case <-ctx.Done():
			}
		}
		var rec golden.Recaller = eng
		if set.Fixture != "" {
			emit(goldenProgressMsg{Seq: seq, Fixture: true, Total: len(set.Probes)})
			fx, closeFx, err := golden.FixtureEngine(ctx, set, "", golden.StoreOpener(open))
			if err != nil {
				return send(paneGolden, goldenRunMsg{Seq: seq, Err: err, Cancelled: ctx.Err() != nil})
			}
			defer closeFx()
			rec = fx
		}
		res, err := (&golden.Runner{Now: now}).Run(ctx, set, rec, func(done, total int) {
			emit(goldenProgressMsg{Seq: seq, Done: done, Total: total})
		})
		return send(paneGolden, goldenRunMsg{Seq: seq, Run: res, Err: err, Cancelled: err != nil && ctx.Err() != nil, Elapsed: time.Since(start)})
	}
	return p, tea.Batch(run, waitGolden(events), p.aim(0))
}

// waitGolden delivers the next progress message of a run; the pane issues
// it again after each one. A closed channel (the run ended) yields nothing.
func waitGolden(events <-chan goldenProgressMsg) tea.Cmd {
	if events == nil {
		return nil
	}
	return func() tea.Msg {
		m, ok := <-events
		if !ok {
			return nil
		}
		return send(paneGolden, m)
	}
}

// save writes the run to the baseline file and reads it back, so the tab
// compares against exactly what is on disk.
func (p goldenPane) save() (goldenPane, tea.Cmd) {
	run, path := p.run, p.baselineTarget()
	if run == nil || path == "" {
		return p, nil
	}
	p.saving = true
	return p, func() tea.Msg {
		if err := run.Save(path); err != nil {
			return send(paneGolden, goldenSavedMsg{Path: path, Err: err})
		}
		back, err := golden.LoadRun(path)
		return send(paneGolden, goldenSavedMsg{Path: path, Run: back, Err: err})
	}
}

// probeQuery is the recall a probe ran: the query the runner built (the
// set's defaults, the default k and budget), at the time of this run when
// there is one.
func (p goldenPane) probeQuery(r goldenRow) engine.Query {
	q := p.set.Query(*r.Probe, p.c.now(), engine.DefaultConfig())
	if r.Result != nil && !r.Result.At.IsZero() {
		q.At = r.Result.At
	}
	return q
}

// openTrace sends the selected probe's query to the Trace tab.
func (p goldenPane) openTrace() (goldenPane, tea.Cmd) {
	r, ok := p.selected()
	if !ok {
		return p, nil
	}
	if r.Probe == nil || p.set == nil {
		p.status = fmt.Sprintf("probe %s is not in the loaded set: no query to trace", r.ID)
		return p, nil
	}
	q := p.probeQuery(r)
	p.status = fmt.Sprintf("opened %s in the Trace tab", r.ID)
	if p.set.Fixture != "" {
		p.status += " (it recalls from the open database; this run used the set's fixture)"
	}
	return p, func() tea.Msg { return OpenTraceMsg{Query: q} }
}
