package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/inspector"
	"memtrace/internal/wording"
)

// The Golden tab's experiment view (issue #35): the set under two
// policies, A (the database's recorded policy) and B (a policy file), each
// on a fresh fixture database built under it — golden.RunExperiment, the
// one `memtrace experiment` runs. The view shows the aggregate figures of
// both and the probes that differ, flipped first; enter opens the Trace
// split with A on the left and B on the right; W records B as the
// database's policy (confirmed, one audited policy batch, undone by
// `memtrace rollback` or u in the Curate tab's history).

type experimentKeys struct {
	Start, Write, Rerun, Leave, Open key.Binding
	Yes, No                          key.Binding
	Up, Down                         key.Binding
}

func defaultExperimentKeys() experimentKeys {
	return experimentKeys{
		Start: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "experiment: A vs policy B")),
		Write: key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "write B as the DB's policy")),
		Rerun: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "re-run both")),
		Leave: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave the experiment")),
		Open:  key.NewBinding(key.WithKeys("enter", "t"), key.WithHelp("enter/t", "split: A left, B right")),
		Yes:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "write B")),
		No:    key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep the policy")),
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous probe")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next probe")),
	}
}

// experimentArm is one policy of the view: its name, where it comes from
// and the policy itself.
type experimentArm struct {
	Name   string
	Source string // the file, or "" for the database's recorded policy / the defaults
	Config engine.Config
}

// experiment is the view's state; shown: it takes the tab.
type experiment struct {
	keys    experimentKeys
	shown   bool
	running bool
	seq     int
	// spec is what the prompt asked for: B's file ("": the database's
	// policy against the defaults) and the time (when: nil, the set's).
	spec experimentSpec

	a, b experimentArm
	x    *golden.Experiment
	arms [2]*fixtureDB // the arms' fixture databases, open for the split
	cur  int           // the selected differing probe

	confirm bool   // W asked: y writes B
	writing bool   // the write is in flight
	plan    string // what W would change, for the confirmation
}

// experimentSpec is the prompt's answer: "FILE [@ T]".
type experimentSpec struct {
	File, At string
	When     *engine.When
}

// parseExperimentSpec reads the prompt: a policy file, optionally followed
// by "@ T" (a time as --at takes it: +30d, 2026-08-01).
func parseExperimentSpec(s string) (experimentSpec, error) {
	file, at := s, ""
	if i := strings.LastIndex(s, "@"); i >= 0 { // a time has no @; a path may
		file, at = s[:i], s[i+1:]
	}
	sp := experimentSpec{File: strings.TrimSpace(file), At: strings.TrimSpace(at)}
	if sp.At != "" {
		w, err := engine.ParseWhen(sp.At)
		if err != nil {
			return sp, engine.Errorf(engine.EINVALID, "the time after @: %s", engine.ErrorMessage(err))
		}
		sp.When = &w
	}
	return sp, nil
}

type (
	// goldenExperimentMsg ends an experiment run.
	goldenExperimentMsg struct {
		Seq  int
		A, B experimentArm
		X    *golden.Experiment
		Arms [2]*fixtureDB
		Err  error
	}
	// goldenPolicyWrittenMsg is W's write: the policy batch, or why not.
	goldenPolicyWrittenMsg struct {
		Batch string
		Err   error
	}
)

// askExperiment opens the prompt for policy B.
func (p goldenPane) askExperiment() (goldenPane, tea.Cmd) {
	switch {
	case p.progress.running || p.exp.running:
		p.status = "a run is in progress: esc cancels it first"
		return p, nil
	case p.set == nil:
		p.err = "no golden set loaded: o opens one"
		return p, nil
	}
	p.exp.shown = false
	p.inputFor, p.input.Prompt, p.input.Placeholder = inputPolicy, "policy B: ", "path/to/policy.yaml [@ +30d] · empty: the DB's policy vs the defaults"
	p.input.SetValue(p.exp.spec.File + map[bool]string{true: " @ " + p.exp.spec.At}[p.exp.spec.At != ""])
	p.input.CursorEnd()
	return p, p.input.Focus()
}

// experimentKey handles a key while the view is shown.
func (p goldenPane) experimentKey(msg tea.KeyPressMsg) (goldenPane, tea.Cmd) {
	k := p.exp.keys
	if p.exp.confirm {
		switch {
		case key.Matches(msg, k.Yes):
			p.exp.confirm = false
			return p.writePolicy()
		case key.Matches(msg, k.No):
			p.exp.confirm = false
			p.status = "the database's policy is unchanged"
		}
		return p, nil
	}
	n := 0
	if p.exp.x != nil {
		n = len(p.exp.x.Probes)
	}
	switch {
	case key.Matches(msg, k.Leave):
		if p.exp.running {
			p.status = "the experiment runs on; its result waits here (X shows it again)"
		}
		p.exp.shown = false
		return p, nil
	case key.Matches(msg, k.Up):
		p.exp.cur = max(0, p.exp.cur-1)
	case key.Matches(msg, k.Down):
		p.exp.cur = max(0, min(n-1, p.exp.cur+1))
	case key.Matches(msg, k.Start) && !p.exp.running:
		return p.askExperiment()
	case key.Matches(msg, k.Rerun) && !p.exp.running:
		return p.startExperiment(p.exp.spec)
	case key.Matches(msg, k.Open) && n > 0 && !p.exp.running:
		return p.openExperimentSplit()
	case key.Matches(msg, k.Write) && p.exp.x != nil && !p.exp.running && !p.exp.writing:
		return p.askWrite()
	}
	return p, nil
}

// experimentBindings are the view's keys, for the footer and ? help.
func (p goldenPane) experimentBindings() []key.Binding {
	k := p.exp.keys
	switch {
	case p.exp.confirm:
		return []key.Binding{k.Yes, k.No}
	case p.exp.running:
		return []key.Binding{k.Leave}
	}
	var out []key.Binding
	if p.exp.x != nil && len(p.exp.x.Probes) > 0 {
		out = append(out, k.Open, k.Up, k.Down)
	}
	if p.exp.x != nil {
		out = append(out, k.Write)
	}
	return append(out, k.Rerun, withHelp(k.Start, "X", "another policy B"), k.Leave)
}

// experimentDone takes a finished run in.
func (p goldenPane) experimentDone(msg goldenExperimentMsg) (goldenPane, tea.Cmd) {
	if msg.Seq != p.exp.seq {
		// An older run's databases: closed off the UI goroutine (it
		// removes their directories).
		return p, func() tea.Msg { closeArms(msg.Arms); return nil }
	}
	p.exp.running = false
	if msg.Err != nil {
		p.err = "experiment: " + engine.ErrorMessage(msg.Err)
		return p, nil
	}
	old := p.exp.arms
	p.exp.a, p.exp.b, p.exp.x, p.exp.arms, p.exp.cur = msg.A, msg.B, msg.X, msg.Arms, 0
	p.err = ""
	p.status = fmt.Sprintf("experiment: %s %s, %d flipped · enter: the split, W: write B as the database's policy", wording.Count(msg.X.Differences, "probe"), wording.Agree(msg.X.Differences, "differs", "differ"), msg.X.Flipped)
	if msg.X.Differences == 0 {
		p.status = "experiment: no probe differs between A and B"
	}
	return p, func() tea.Msg { closeArms(old); return nil }
}

func closeArms(arms [2]*fixtureDB) {
	for _, a := range arms {
		a.Close()
	}
}

// openExperimentSplit opens the selected probe in the Trace split: A's
// recall on the left, B's on the right, compared as the time split
// compares (inspector.CompareTraces), on B's fixture database.
func (p goldenPane) openExperimentSplit() (goldenPane, tea.Cmd) {
	d := p.exp.x.Probes[min(p.exp.cur, len(p.exp.x.Probes)-1)]
	fxB := p.exp.arms[1]
	if fxB.Closed() || d.Traces[0] == nil || d.Traces[1] == nil {
		p.err = "the experiment's databases are closed: r runs it again"
		return p, nil
	}
	if id, ok := sameNumbering(d.Traces[0], d.Traces[1]); !ok {
		// Capture-time keys differ: the two fixtures stored different
		// memories, and the split, which matches by id, would pair them
		// wrongly.
		p.err = fmt.Sprintf("A and B numbered the memories differently (id %d): their capture-time keys differ, so the split cannot pair them; the detail above and `memtrace experiment --json` compare by key", id)
		return p, nil
	}
	cmp := inspector.CompareTraces(fxB.eng, d.Traces[0], d.Traces[1])
	q := engine.Query{Text: d.Query, At: d.Traces[1].At}
	if pr := p.probe(d.ID); pr != nil {
		q = p.set.Query(*pr, p.c.now(), fxB.eng.Config())
		q.At = d.Traces[1].At
	}
	msg := OpenTraceMsg{Query: q, Trace: d.Traces[1], Fixture: fxB,
		Origin:   &TraceOrigin{Set: p.setPath, Probe: d.ID, At: d.Traces[1].At, Run: true, DB: "B's fixture (" + p.exp.b.Name + ")"},
		Policies: &PolicySplit{A: p.exp.a.Name, B: p.exp.b.Name, Cmp: cmp}}
	p.status = fmt.Sprintf("opened %s in the Trace split: A (%s) left, B (%s) right", d.ID, p.exp.a.Name, p.exp.b.Name)
	return p, func() tea.Msg { return msg }
}

// probe is the set's probe with id, nil when the set has none.
func (p goldenPane) probe(id string) *golden.Probe {
	for i := range p.set.Probes {
		if p.set.Probes[i].ID == id {
			return &p.set.Probes[i]
		}
	}
	return nil
}

// sameNumbering reports whether every id the two traces share names the
// same memory (key) in both; else the first id that does not.
func sameNumbering(a, b *engine.Trace) (int64, bool) {
	keys := map[int64]string{}
	for _, t := range []*engine.Trace{a, b} {
		for _, st := range t.Stages {
			for _, it := range st.Items {
				if k, ok := keys[it.ID]; ok && k != it.Key {
					return it.ID, false
				}
				keys[it.ID] = it.Key
			}
		}
	}
	return 0, true
}
