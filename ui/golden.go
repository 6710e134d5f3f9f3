package ui

import (
	"fmt"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/wording"
)

// defaultGoldenSet is the set the Golden tab opens at start when it exists
// relative to the working directory: the project's own.
const defaultGoldenSet = "testdata/golden/demo.yaml"

type goldenKeys struct {
	list                              listKeys
	Run, Cancel, Save, Baseline       key.Binding
	Open, Trace, DetailUp, DetailDown key.Binding
	NextFail, PrevFail, OnOpenDB      key.Binding
	Yes, No, Load, Leave              key.Binding
	Experiment                        key.Binding
	filter                            filterKeys
}

func defaultGoldenKeys() goldenKeys {
	return goldenKeys{
		list:       defaultListKeys(),
		Run:        key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run all")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel run")),
		Save:       key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "save as baseline")),
		Baseline:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "choose baseline")),
		Open:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open set")),
		Trace:      key.NewBinding(key.WithKeys("enter", "t"), key.WithHelp("enter/t", "trace")),
		DetailUp:   key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "detail up")),
		DetailDown: key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "detail down")),
		NextFail:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next failure")),
		PrevFail:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous failure")),
		OnOpenDB:   key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "run on open DB ⇄ fixture")),
		Yes:        key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "save")),
		No:         key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep the old one")),
		Load:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "load")),
		Leave:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Experiment: defaultExperimentKeys().Start,
		filter:     defaultFilterKeys(),
	}
}

// inputTarget is what the path input is for.
type inputTarget int

const (
	inputSet inputTarget = iota
	inputBaseline
	inputPolicy // the experiment's policy B (golden_experiment.go)
)

// goldenRow is one line of the probe list: a probe of the set or of the
// current run, with its baseline result and how it moved.
type goldenRow struct {
	ID     string
	Query  string
	Probe  *golden.Probe       // nil: not in the loaded set (a missing probe)
	Result *golden.ProbeResult // this run; nil before a run or when missing
	Was    *golden.ProbeResult // the baseline's; nil without one
	Change *golden.ProbeDiff   // nil: no baseline, no run, or nothing moved
}

// goldenPane is the Golden tab: a golden set's probes with pass/fail and
// the change against a reviewed baseline, run with a progress bar, the
// selected probe's diff, and the jump into its trace.
type goldenPane struct {
	c          *common
	keys       goldenKeys
	input      textinput.Model
	inputFor   inputTarget
	defaultSet string

	setPath string
	set     *golden.Set
	// quarantine is the set's quarantine file, "" when it has none.
	quarantine string
	basePath   string
	base       *golden.RunResult
	run        *golden.RunResult
	diff       *golden.RunDiff
	probes     probeList // the probes the filter lets through, and the selected one's detail scroll
	loading    bool
	reloaded   string // the probe a reload was asked for (the Trace tab appended it)
	notFound   bool   // the default set is absent: the user types a path

	// onOpenDB: r runs the set against the open database instead of its
	// fixture, so a curator sees the effect of their own changes.
	onOpenDB bool
	// fx is the fixture database the last run built (kept open for the
	// probes' traces); ranOn says what the last run recalled from.
	fx    *fixtureDB
	ranOn string

	progress goldenProgress // the run in flight

	confirmSave bool
	saving      bool

	// filter is the "/" filter of the probe list; match is it parsed.
	filter filterBar
	match  func(goldenRow) bool

	// exp is the experiment view: the set under policies A and B.
	exp experiment

	width, height int
	status, err   string
}

func newGoldenPane(c *common) goldenPane {
	in := textinput.New()
	in.SetStyles(c.styles.Input)
	k := defaultGoldenKeys()
	p := goldenPane{c: c, keys: k, input: in, defaultSet: defaultGoldenSet, exp: experiment{keys: defaultExperimentKeys()},
		filter: newFilterBar(c, goldenQuery().hint()), progress: newGoldenProgress(c), probes: newProbeList(c, k)}
	return p
}

func (p goldenPane) ID() paneID    { return paneGolden }
func (p goldenPane) Title() string { return "Golden" }

// Typing: the path input and the save confirmation take every key.
func (p goldenPane) Typing() bool {
	return p.input.Focused() || p.confirmSave || p.filter.input.Focused() || p.exp.shown && p.exp.confirm
}
func (p goldenPane) Busy() bool {
	return p.progress.running || p.loading || p.saving || p.exp.running || p.exp.writing
}

func (p goldenPane) KeyBindings() []key.Binding {
	k := p.keys
	switch {
	case p.input.Focused():
		return []key.Binding{k.Load, k.Leave}
	case p.confirmSave:
		return []key.Binding{k.Yes, k.No}
	case p.filter.input.Focused():
		return []key.Binding{k.filter.Done, k.filter.Clear}
	case p.exp.shown:
		return p.experimentBindings()
	case p.progress.running:
		return append([]key.Binding{k.Cancel, k.Trace}, k.list.bindings()...)
	}
	out := []key.Binding{k.Run, k.Trace, k.NextFail, k.PrevFail, k.Experiment}
	if p.set != nil && p.set.Fixture != "" {
		out = append(out, k.OnOpenDB)
	}
	out = append(out, k.filter.Filter)
	if p.filter.input.Value() != "" {
		out = append(out, k.filter.ClearSet)
	}
	out = append(out, k.Save, k.Baseline, k.Open)
	// J and K only while the detail has more lines than room, in the
	// direction they can still scroll (the view clamps detailTop).
	if r, ok := p.probes.selected(); ok {
		out = append(out, p.detailScroll().bindings(k.DetailDown, k.DetailUp, len(p.detailBody(r)), p.detailRows()-1)...)
	}
	return append(out, k.list.bindings()...)
}

// Layout: four header lines (the set, the database it runs on, the counts,
// the bar or verdict), the table header, the probe rows, the selected
// probe's detail, a status line.
const goldenHeaderLines = 5

// goldenDetailMin is the fewest lines the selected probe's detail keeps.
const goldenDetailMin = 6

func (p goldenPane) SetSize(w, h int) pane {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, w-12))
	p.progress = p.progress.SetWidth(w)
	p.probes = p.probes.SetSize(w, h-goldenHeaderLines-1)
	p.probes = p.probes.measured(p.measureDetail())
	return p
}

func (p goldenPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	p, cmd := p.update(msg)
	return p, cmd
}

func (p goldenPane) update(msg tea.Msg) (goldenPane, tea.Cmd) {
	switch msg := msg.(type) {
	case restyleMsg:
		p.input.SetStyles(p.c.styles.Input)
		p.filter.input.SetStyles(p.c.styles.Input)
		var cmd tea.Cmd
		p.progress, cmd = p.progress.Update(msg)
		return p, cmd
	case startMsg:
		if p.set != nil || p.loading {
			return p, nil
		}
		p.loading = true
		return p, loadDefaultSet(p.defaultSet, p.c.deps.Sets)
	case goldenSetMsg:
		return p.setLoaded(msg), nil
	case goldenReloadMsg:
		// The Trace tab appended a probe to a set file: reload it when it
		// is the one shown (a run in flight keeps its set; r reloads).
		if msg.Path != p.setPath || p.progress.running {
			return p, nil
		}
		p.loading = true
		p.reloaded = msg.Probe
		return p, loadSet(msg.Path)
	case goldenBaselineMsg:
		p.loading = false
		if msg.Err != nil {
			p.err = "baseline: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.basePath, p.base, p.err = msg.Path, msg.Run, ""
		p.status = fmt.Sprintf("baseline %s: %d/%d passed", msg.Path, msg.Run.Summary.Passed, msg.Run.Summary.Probes)
		p.rebuild()
		return p, nil
	case goldenRunMsg:
		return p.runFinished(msg)
	case goldenExperimentMsg:
		return p.experimentDone(msg)
	case goldenPolicyWrittenMsg:
		return p.policyWritten(msg), nil
	case goldenSavedMsg:
		p.saving = false
		if msg.Err != nil {
			p.err = "save baseline: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.basePath, p.base, p.err = msg.Path, msg.Run, ""
		p.status = fmt.Sprintf("saved the run as the baseline %s (%d/%d passed); review it in code review", msg.Path, msg.Run.Summary.Passed, msg.Run.Summary.Probes)
		p.rebuild()
		return p, nil
	case goldenProgressMsg, progress.FrameMsg:
		var cmd tea.Cmd
		p.progress, cmd = p.progress.Update(msg)
		return p, cmd
	case tea.KeyPressMsg:
		return p.handleKey(msg)
	case tea.MouseWheelMsg:
		// Over the selected probe's detail the wheel scrolls it; over the
		// rows, the rows.
		if msg.Mouse().Y >= goldenHeaderLines+p.probes.listRows() {
			p, _ = p.scrollDetail(msg)
			return p, nil
		}
		p.probes = p.probes.Update(msg)
		return p, nil
	case tea.MouseClickMsg:
		msg.Y -= goldenHeaderLines
		p.probes = p.probes.Update(msg)
		return p, nil
	}
	if p.filter.input.Focused() {
		return p, updateFocused(&p.filter.input, msg)
	}
	return p, updateFocused(&p.input, msg)
}

func (p goldenPane) setLoaded(msg goldenSetMsg) goldenPane {
	p.loading = false
	switch {
	case msg.Missing:
		p.notFound = true
		p.status = fmt.Sprintf("no golden set at %s: press o and type the path of a set file", p.defaultSet)
		if len(msg.Tried) > 1 {
			p.status = fmt.Sprintf("no golden set %s in the working directory, its parents or the executable's: press o and type the path of a set file", p.defaultSet)
		}
		return p
	case msg.Err != nil:
		p.err = "open set: " + engine.ErrorMessage(msg.Err)
		return p
	}
	p.notFound = false
	p.setPath, p.set, p.run, p.diff = msg.Path, msg.Set, nil, nil
	p.c.goldenSet = msg.Path
	p.quarantine = msg.Quarantine
	p.basePath, p.base = msg.BasePath, msg.Base
	p.probes, p.err = p.probes.reset(), ""
	switch {
	case msg.BaseErr != nil:
		p.err = "baseline: " + engine.ErrorMessage(msg.BaseErr)
	case msg.Base == nil:
		p.status = fmt.Sprintf("%s; no baseline at %s: r runs them, S saves the run as one", wording.Count(len(msg.Set.Probes), "probe"), msg.BasePath)
	default:
		p.status = fmt.Sprintf("%s; r runs them against the baseline", wording.Count(len(msg.Set.Probes), "probe"))
	}
	if msg.Builtin {
		p.status = fmt.Sprintf("the demo set built into memtrace, copied to %s — %s", filepath.Dir(msg.Path), p.status)
	}
	if p.reloaded != "" {
		p.status = fmt.Sprintf("reloaded %s with the new probe %s: r runs it", displayPath(msg.Path), p.reloaded)
	}
	p.rebuild()
	if p.reloaded != "" {
		for i, r := range p.probes.rows {
			if r.ID == p.reloaded {
				p.probes.moveTo(i)
			}
		}
		p.reloaded = ""
	}
	return p
}

func (p goldenPane) runFinished(msg goldenRunMsg) (goldenPane, tea.Cmd) {
	if msg.Seq != p.progress.seq {
		return p, nil
	}
	p.progress = p.progress.finish()
	var closeOld tea.Cmd
	if msg.Err == nil {
		// The new run's fixture replaces the last one (closed off the UI's
		// goroutine: it removes a directory).
		if old := p.fx; old != nil && old != msg.Fx {
			closeOld = func() tea.Msg { old.Close(); return nil }
		}
		p.fx, p.ranOn = msg.Fx, msg.RanOn
	}
	if msg.Err != nil {
		if msg.Cancelled {
			p.status = fmt.Sprintf("run cancelled after %d of %s; the last complete run is still shown", p.progress.done, wording.Count(p.progress.total, "probe"))
			p.err = ""
		} else {
			p.err = "run: " + engine.ErrorMessage(msg.Err)
		}
		return p, nil
	}
	p.run, p.err = msg.Run, ""
	p.status = fmt.Sprintf("ran %s on %s in %.1fs", wording.Count(len(msg.Run.Probes), "probe"), msg.RanOn, msg.Elapsed.Seconds())
	if f := msg.Run.Summary.Failed; f > 0 {
		p.status += fmt.Sprintf(" · %d failed: n goes to the next", f)
	}
	p.rebuild()
	full := p.progress.aim(1)
	return p, tea.Batch(full, closeOld)
}

// baselineTarget is the file `b` offers and `S` writes: the chosen
// baseline, else the set's conventional one.
func (p goldenPane) baselineTarget() string {
	switch {
	case p.basePath != "":
		return p.basePath
	case p.setPath != "":
		return golden.BaselinePath(p.setPath)
	}
	return ""
}

func (p goldenPane) askSave() goldenPane {
	switch {
	case p.progress.running:
		p.status = "a run is in progress: wait for it, then save"
		return p
	case p.run == nil:
		p.err = "nothing to save yet: r runs the set first"
		return p
	}
	p.err = ""
	p.confirmSave = true
	return p
}

// saveQuestion is the confirmation shown before S overwrites a baseline.
func (p goldenPane) saveQuestion() string {
	s := p.run.Summary
	q := fmt.Sprintf("Save this run (%d/%d passed) as the baseline %s?", s.Passed, s.Probes, p.baselineTarget())
	if p.base != nil {
		q += fmt.Sprintf(" It replaces one with %d/%d passed", p.base.Summary.Passed, p.base.Summary.Probes)
		if p.diff != nil && p.diff.Regressed() {
			q += fmt.Sprintf(", and this run REGRESSED (%d broke, %d missing)", p.diff.Count(golden.ChangeBroke), p.diff.Count(golden.ChangeMissing))
		}
		q += "."
	}
	return q + " y/n"
}
