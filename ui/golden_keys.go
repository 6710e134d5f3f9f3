package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/golden"
)

// The Golden tab's keys: the path input, the save confirmation, the run,
// the list, the jumps between failures and the database a run uses.

func (p goldenPane) handleKey(msg tea.KeyPressMsg) (goldenPane, tea.Cmd) {
	k := p.keys
	if p.input.Focused() {
		switch {
		case key.Matches(msg, k.Leave):
			p.input.Blur()
			return p, nil
		case key.Matches(msg, k.Load):
			p.input.Blur()
			path := strings.TrimSpace(p.input.Value())
			if p.inputFor == inputPolicy {
				sp, err := parseExperimentSpec(path)
				if err != nil {
					p.err = engine.ErrorMessage(err)
					return p, nil
				}
				return p.startExperiment(sp)
			}
			if path == "" {
				return p, nil
			}
			p.loading = true
			if p.inputFor == inputBaseline {
				return p, loadBaseline(path)
			}
			return p, loadSet(path)
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return p, cmd
	}
	if p.filter.input.Focused() {
		return p.filterKey(msg)
	}
	if p.exp.shown {
		return p.experimentKey(msg)
	}
	if p.confirmSave {
		switch {
		case key.Matches(msg, k.Yes):
			p.confirmSave = false
			return p.save()
		case key.Matches(msg, k.No):
			p.confirmSave = false
			p.status = "baseline kept"
		}
		return p, nil
	}
	switch {
	case p.progress.running && key.Matches(msg, k.Cancel):
		p.progress.stop()
		p.status = "cancelling the run…"
		return p, nil
	case key.Matches(msg, k.filter.Filter):
		return p, p.filter.input.Focus()
	case !p.progress.running && key.Matches(msg, k.filter.ClearSet) && p.filter.clear():
		p.refilter()
		return p, nil
	case key.Matches(msg, k.Run):
		return p.startRun()
	case key.Matches(msg, k.Experiment):
		if p.exp.x != nil || p.exp.running {
			p.exp.shown = true // the last experiment again; r re-runs it, esc and X again asks for another B
			return p, nil
		}
		return p.askExperiment()
	case key.Matches(msg, k.Trace):
		return p.openTrace()
	case key.Matches(msg, k.NextFail):
		p.nextFailure(1)
		return p, nil
	case key.Matches(msg, k.PrevFail):
		p.nextFailure(-1)
		return p, nil
	case key.Matches(msg, k.OnOpenDB):
		return p.toggleOpenDB(), nil
	case key.Matches(msg, k.Save):
		return p.askSave(), nil
	case key.Matches(msg, k.Baseline), key.Matches(msg, k.Open):
		if p.progress.running {
			p.status = "a run is in progress: esc cancels it first"
			return p, nil
		}
		p.inputFor, p.input.Prompt, p.input.Placeholder = inputSet, "set: ", "path/to/set.yaml"
		value := p.setPath
		if key.Matches(msg, k.Baseline) {
			p.inputFor, p.input.Prompt, p.input.Placeholder = inputBaseline, "baseline: ", "path/to/run.json"
			value = p.baselineTarget()
		}
		p.input.SetValue(value)
		p.input.CursorEnd()
		return p, p.input.Focus()
	}
	if q, ok := p.scrollDetail(msg); ok {
		return q, nil
	}
	p.probes = p.probes.Update(msg)
	return p, nil
}

// failing reports a row that fails in this run, or in the baseline before
// a run, or went missing.
func (r goldenRow) failing() bool {
	switch {
	case r.Result != nil:
		return !r.Result.Pass
	case r.Change != nil && r.Change.Change == golden.ChangeMissing:
		return true
	case r.Was != nil:
		return !r.Was.Pass
	}
	return false
}

// nextFailure moves to the next failing probe in direction dir (1 down,
// -1 up), wrapping around; the status says which it is, or that there is
// none.
func (p *goldenPane) nextFailure(dir int) {
	var found bool
	if p.probes, found = p.probes.nextFailure(dir); found {
		r, _ := p.probes.selected()
		p.status = fmt.Sprintf("failure %d of %d: %s", p.probes.failureRank(), p.probes.failureCount(), r.ID)
		return
	}
	switch {
	case p.run == nil && p.base == nil:
		p.status = "no results yet: r runs the set"
	default:
		p.status = "no failing probe"
	}
}

// toggleOpenDB switches what r runs the set on: its fixture (a fresh
// database, what CI runs) or the open database (the curator's own).
func (p goldenPane) toggleOpenDB() goldenPane {
	switch {
	case p.set == nil:
		return p
	case p.set.Fixture == "":
		p.status = "this set has no fixture: it always runs on the open database"
		return p
	case p.progress.running:
		p.status = "a run is in progress: esc cancels it first"
		return p
	}
	p.onOpenDB = !p.onOpenDB
	p.err = ""
	if p.onOpenDB {
		p.status = "r now runs the set on the open database: your curation counts (d: back to the fixture)"
	} else {
		p.status = "r now runs the set on its fixture, a fresh database as CI builds it"
	}
	return p
}

// runsOn names what r runs the set on.
func (p goldenPane) runsOn() string {
	if p.set != nil && p.set.Fixture != "" && !p.onOpenDB {
		fx := fixtureDB{fixture: p.set.Fixture, quarantine: p.quarantine}
		return fx.label()
	}
	return p.openDBLabel()
}

func (p goldenPane) openDBLabel() string {
	if p.c.deps.DBPath != "" {
		return "the open database " + displayPath(p.c.deps.DBPath)
	}
	return "the open database"
}
