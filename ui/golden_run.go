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
	"memtrace/recall"
)

// The Golden tab's I/O: every function here returns a tea.Cmd; nothing
// reads a file or runs a recall inside Update.

// loadDefaultSet opens path when it exists; otherwise the set built into
// the binary (sets, nil: none) copied out to the user's cache; otherwise
// the tab asks for a path.
func loadDefaultSet(name string, sets fs.FS) tea.Cmd {
	return func() tea.Msg {
		path, tried := findSet(name)
		if path != "" {
			return readSet(path)
		}
		if sets == nil {
			return send(paneGolden, goldenSetMsg{Missing: true, Tried: tried})
		}
		path, err := extractSets(sets)
		if err != nil {
			return send(paneGolden, goldenSetMsg{Err: err})
		}
		msg := openSet(path)
		msg.Builtin = true
		return send(paneGolden, msg)
	}
}

func loadSet(path string) tea.Cmd {
	return func() tea.Msg { return readSet(path) }
}

// readSet loads a set and the baseline beside it (<set>.baseline.json),
// when there is one.
func readSet(path string) tea.Msg { return send(paneGolden, openSet(path)) }

func openSet(path string) goldenSetMsg {
	set, err := golden.Load(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = engine.Errorf(engine.ENOTFOUND, "no golden set at %s; check the path (relative to the directory memtrace runs in)", path)
		}
		return goldenSetMsg{Path: path, Err: err}
	}
	msg := goldenSetMsg{Path: path, Set: set, BasePath: golden.BaselinePath(path)}
	if q := golden.QuarantinePath(path); set.Fixture != "" && fileExists(q) {
		msg.Quarantine = q
	}
	if _, err := os.Stat(msg.BasePath); err == nil {
		msg.Base, msg.BaseErr = golden.LoadRun(msg.BasePath)
	}
	return msg
}

func loadBaseline(path string) tea.Cmd {
	return func() tea.Msg {
		run, err := golden.LoadRun(path)
		return send(paneGolden, goldenBaselineMsg{Path: path, Run: run, Err: err})
	}
}

// startRun runs every probe of the set in a Cmd: against a fresh database
// built from the set's fixture (as `golden run` does), or against the open
// database when the set has none or d chose it. Progress streams through a
// channel that waitGolden drains, one message at a time; esc cancels the
// context. The fixture database stays open after the run (the probes'
// traces recall from it) until a newer run replaces it.
func (p goldenPane) startRun() (goldenPane, tea.Cmd) {
	if p.progress.running {
		return p, nil
	}
	set := p.set
	if set == nil {
		p.err = "no golden set loaded: o opens one"
		return p, nil
	}
	open, eng := p.c.deps.OpenStore, p.c.deps.Engine
	useFixture := set.Fixture != "" && !p.onOpenDB
	if useFixture && open == nil {
		p.err = fmt.Sprintf("set %s builds a fixture database, and this UI was started without a database opener; run `memtrace golden run %s`", set.Name, p.setPath)
		return p, nil
	}
	ctx, cancel := context.WithCancel(p.c.ctx)
	events := make(chan goldenProgressMsg, 16)
	var seq int
	p.progress, seq = p.progress.start(cancel, events, useFixture, len(set.Probes))
	p.err, p.status = "", ""
	now, res, ranOn := p.c.now, p.c.res, p.runsOn()
	run := func() tea.Msg {
		defer close(events)
		defer cancel()
		start := time.Now()
		// Progress never holds the run up: when the UI has not read the
		// last messages yet, the oldest goes (only the latest matters).
		emit := func(m goldenProgressMsg) {
			for {
				select {
				case events <- m:
					return
				case <-ctx.Done():
					return
				default:
					select {
					case <-events:
					default:
					}
				}
			}
		}
		var rec golden.Recaller = recall.Over(eng)
		var fx *fixtureDB
		if useFixture {
			emit(goldenProgressMsg{Seq: seq, Fixture: true})
			fe, closeFx, err := golden.FixtureEngine(ctx, set, "", golden.StoreOpener(open), func(done, total int) {
				emit(goldenProgressMsg{Seq: seq, Fixture: true, Done: done, Total: total})
			})
			if err != nil {
				return send(paneGolden, goldenRunMsg{Seq: seq, Err: err, Cancelled: ctx.Err() != nil})
			}
			fx = newFixtureDB(set, fe, closeFx)
			if res != nil {
				res.track(fx)
			}
			rec = recall.Over(fe)
		}
		emit(goldenProgressMsg{Seq: seq, Total: len(set.Probes)})
		out, err := (&golden.Runner{Now: now}).Run(ctx, set, rec, func(done, total int) {
			emit(goldenProgressMsg{Seq: seq, Done: done, Total: total})
		})
		if err != nil {
			fx.Close()
			fx = nil
		}
		return send(paneGolden, goldenRunMsg{Seq: seq, Run: out, Err: err, Cancelled: err != nil && ctx.Err() != nil,
			Elapsed: time.Since(start), Fx: fx, RanOn: ranOn})
	}
	empty := p.progress.aim(0)
	return p, tea.Batch(run, waitGolden(events), empty)
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
		if err := run.Save(path, p.c.deps.Store.FilePerm()); err != nil {
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

// openTrace sends the selected probe's trace to the Trace tab: after a
// run, the recall that run made — on the fixture database it built (kept
// open, so the Trace tab re-runs and steps the time there) or on the open
// database — opened where the probe's first failure is; before a run, the
// probe's query on the open database, labelled as not the probe's run
// when the set has a fixture.
func (p goldenPane) openTrace() (goldenPane, tea.Cmd) {
	r, ok := p.probes.selected()
	if !ok {
		return p, nil
	}
	if r.Probe == nil || p.set == nil {
		p.status = fmt.Sprintf("probe %s is not in the loaded set: no query to trace", r.ID)
		return p, nil
	}
	q := p.probeQuery(r)
	msg := OpenTraceMsg{Query: q, Origin: &TraceOrigin{Set: p.setPath, Probe: r.ID, At: q.At}}
	switch {
	case r.Result != nil && r.Result.Trace != nil:
		msg.Trace = r.Result.Trace
		msg.Origin.Run = true
		msg.Origin.DB = p.ranOn
		if p.fx != nil {
			msg.Fixture = p.fx
		}
		msg.Focus = failureFocus(*r.Probe, r.Result.Trace)
		p.status = fmt.Sprintf("opened the trace of %s's run (%s) in the Trace tab", r.ID, p.ranOn)
	case p.set.Fixture != "" && !p.onOpenDB:
		msg.Origin.DB = p.openDBLabel()
		msg.Origin.NotItsRun = true
		p.status = fmt.Sprintf("opened %s on the open database: r runs the set on its fixture, then enter opens the probe's own run", r.ID)
	default:
		msg.Origin.DB = p.openDBLabel()
		p.status = fmt.Sprintf("opened %s in the Trace tab (%s)", r.ID, msg.Origin.DB)
	}
	return p, func() tea.Msg { return msg }
}

// failureFocus is where the Trace tab opens for a probe: the stage and item
// of its first present selector that is not a survivor (where it was lost),
// else of its first absent selector that is one; nil when the probe holds.
func failureFocus(pr golden.Probe, t *engine.Trace) *TraceFocus {
	for _, sel := range pr.Expect.Present {
		found := false
		for _, s := range t.Survivors {
			if sel.MatchesSurvivor(s) {
				found = true
				break
			}
		}
		if found {
			continue
		}
		if stage, item, ok := golden.LostAt(sel, t); ok {
			return &TraceFocus{Stage: stage, Item: item}
		}
	}
	for _, sel := range pr.Expect.Absent {
		for _, s := range t.Survivors {
			if sel.MatchesSurvivor(s) {
				if stage, item, ok := golden.LostAt(sel, t); ok {
					return &TraceFocus{Stage: stage, Item: item}
				}
			}
		}
	}
	return nil
}
