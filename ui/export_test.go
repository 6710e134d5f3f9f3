package ui

import (
	"context"
	"testing"
	"time"

	"memtrace/engine"
)

// SplitStep is what the Trace tab's split view shows at one step of the
// time override: the override's label ("+30d"), the time it stands for,
// and the split model's sets of memory ids by name (forgotten, left, held,
// rose, fell, new), read from the rows the view renders.
type SplitStep struct {
	Label string
	At    time.Time
	Sets  map[string][]int64
}

// SplitStepsForTest drives a Trace tab over deps as a user does — type
// the query, enter, s for the split view, then ] through +1d … +365d — and
// returns the split model at each step. It is for the external tests of
// this package (the LoCoMo agreement test, which also runs the CLI).
func SplitStepsForTest(t *testing.T, deps Deps, query string) []SplitStep {
	t.Helper()
	styles := NewStyles(true, true)
	deps.NoColor = true
	c := &common{ctx: context.Background(), styles: &styles, res: &resources{}, deps: deps}
	p := newTracePane(c).SetSize(200, 60).(tracePane)
	p = pressTrace(t, p, "/", query, "enter", "s")
	var out []SplitStep
	for range len(engine.TimeSteps()) - 1 {
		p = pressTrace(t, p, "]")
		if p.err != "" || p.cmp == nil {
			t.Fatalf("%q at %s: no comparison (%s)", query, p.override.label(), p.err)
		}
		out = append(out, SplitStep{Label: p.override.label(), At: p.override.at(deps.Now()), Sets: splitSets(t, splitOf(p.cmp))})
	}
	return out
}

// splitSets names the ids of m's rows by mark. A memory at both times is
// marked alike on both sides; the test fails if the sides disagree.
func splitSets(t *testing.T, m splitModel) map[string][]int64 {
	t.Helper()
	names := map[splitMark]string{markHeld: "held", markRose: "rose", markFell: "fell", markNew: "new", markForgotten: "forgotten", markLeft: "left"}
	sets := map[string][]int64{}
	for _, name := range names {
		sets[name] = []int64{}
	}
	nowMark := map[int64]splitMark{}
	for _, r := range m.Now {
		nowMark[r.ID] = r.Mark
		if r.Mark == markForgotten || r.Mark == markLeft {
			sets[names[r.Mark]] = append(sets[names[r.Mark]], r.ID)
		}
	}
	for _, r := range m.Later {
		if mk, ok := nowMark[r.ID]; ok && mk != r.Mark {
			t.Errorf("memory %d marked %s now and %s later", r.ID, names[mk], names[r.Mark])
		}
		sets[names[r.Mark]] = append(sets[names[r.Mark]], r.ID)
	}
	return sets
}
