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

// ApproveThenApplyForTest drives a Curate tab over deps as a curator does
// to approve proposals and apply them later: for each id, a on its row in
// its kind's queue; then P and enter, which applies every approved
// proposal in one batch. It returns the pane's status or error line after
// the apply. It is for the external tests of this package (the test that
// the approve, Curate-tab and apply paths end alike, which also runs the
// CLI).
func ApproveThenApplyForTest(t *testing.T, deps Deps, ids ...int64) string {
	t.Helper()
	deps.NoColor = true
	m := goTo(t, startModel(t, deps, 160, 48), "Curate")
	for _, id := range ids {
		pr := m.curate().queues.proposal(id)
		if pr == nil {
			t.Fatalf("proposal %d is not in the Curate tab", id)
		}
		for range curateKinds() {
			if curateKinds()[m.curate().queues.kindIdx] == queueKind(pr) {
				break
			}
			m = drive(t, m, press("l"))
		}
		m = drive(t, m, press("h"), press("l")) // the queue's first row
		row := -1
		for i, q := range m.curate().queues.list.rows {
			if q.ID == id {
				row = i
			}
		}
		if row < 0 {
			t.Fatalf("proposal %d is not in the %s queue:\n%s", id, queueKind(pr), screen(m))
		}
		for range row {
			m = drive(t, m, press("down"))
		}
		m = drive(t, m, press("a"))
		if e := m.curate().err; e != "" {
			t.Fatalf("a on proposal %d: %s", id, e)
		}
	}
	m = drive(t, m, press("P"))
	if m.curate().dlg == nil {
		t.Fatalf("P opened no confirmation:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		return e
	}
	return m.curate().status
}
