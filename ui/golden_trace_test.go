package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/engine"
	gold "memtrace/golden"
	"memtrace/recall"
)

// fixtureSet writes a golden set over the demo conversation into a
// temporary directory (its fixture by absolute path), with a quarantine
// file beside it when quarantine is not empty.
func fixtureSet(t *testing.T, probes, quarantine string) string {
	t.Helper()
	dir := t.TempDir()
	fixture, err := filepath.Abs("../testdata/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mine.yaml")
	body := "# a curator's own set\nname: mine\nfixture: " + fixture + "\ndefaults: {at: \"2026-07-21T09:00:00Z\", k: 8, budget: 2000}\nprobes:\n" + probes
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if quarantine != "" {
		if err := os.WriteFile(gold.QuarantinePath(path), []byte(quarantine), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

const medicationProbes = `  - id: health-blood-type
    query: "what is my blood type"
    expect: {present: ["key:m0076"]}
  - id: health-morning-medication
    query: "What medication do I take every morning?"
    expect: {present: ["key:m0075"]}
`

// openFromGolden delivers the OpenTraceMsg a Golden harness sent to a Trace
// pane, as the root does.
func openFromGolden(t *testing.T, tp tracePane, msg OpenTraceMsg) tracePane {
	t.Helper()
	next, cmd := tp.Update(msg)
	return deliver(t, next.(tracePane), cmd)
}

func selectedItem(p tracePane) (engine.TraceItem, bool) {
	items := p.stageItems()
	if p.item >= len(items) {
		return engine.TraceItem{}, false
	}
	return items[p.item], true
}

// Golden → failing probe → enter: the Trace tab shows the recall of the
// probe's own run — on the fixture database, where m0075 is quarantined —
// says so in its header, and opens where the probe's memory was lost; its
// re-runs recall from the fixture too, not from the open database (where
// m0075 is active and survives).
func TestGoldenFailingProbeOpensItsOwnTrace(t *testing.T) {
	set := fixtureSet(t, medicationProbes, "key:m0075\n")
	eng, db := openDemo(t)
	g := newGoldenHarness(t, set, 120, 40)
	g.p.c.deps.Engine, g.p.c.deps.DBPath = eng, "/srv/agent/open.db"
	g.loaded()
	v := g.view()
	if !strings.Contains(v, "runs on: fixture "+displayPath(filepath.Join(filepath.Dir(g.p.set.Fixture), "demo.jsonl"))+" + mine.quarantine (a fresh DB each run) · d: run on the open DB") {
		t.Fatalf("the header does not say which database the set runs on:\n%s", v)
	}
	// Before a run there is no trace of the probe's run: enter recalls on
	// the open database and says it is not the probe's run.
	g.moveTo("health-morning-medication")
	g.keys("enter")
	g.until("the trace request before a run", func(goldenPane) bool { return len(g.traces) == 1 })
	if o := g.traces[0].Origin; g.traces[0].Trace != nil || g.traces[0].Fixture != nil || o == nil || !o.NotItsRun ||
		!strings.Contains(o.label(false), "NOT its run on the set's fixture") {
		t.Fatalf("enter before a run: %+v", g.traces[0])
	}
	g.traces = nil
	g.runAll()
	if s := g.p.run.Summary; s.Passed != 1 || s.Failed != 1 {
		t.Fatalf("run: %d passed, %d failed; want the medication probe to fail on the quarantined fixture", s.Passed, s.Failed)
	}

	g.keys("g", "n")
	r, _ := g.p.selected()
	if r.ID != "health-morning-medication" || !strings.Contains(g.p.status, "failure 1 of 1") {
		t.Fatalf("n went to %s (status %q), want the failing probe", r.ID, g.p.status)
	}
	if v := g.view(); !strings.Contains(v, "expect ✗ present key:m0075") {
		t.Errorf("the failing probe's expectation is not shown:\n%s", v)
	}
	g.keys("enter")
	g.until("the trace request", func(goldenPane) bool { return len(g.traces) == 1 })
	msg := g.traces[0]
	if msg.Trace == nil || msg.Fixture == nil || msg.Origin == nil || !msg.Origin.Run {
		t.Fatalf("enter did not hand over the run's own trace and fixture: %+v", msg)
	}

	tp := openFromGolden(t, newTestTrace(eng, db, 120, 40), msg)
	kept := tp // a second look at the same trace, kept open across the next run
	head := originText(tp)
	for _, want := range []string{"probe health-morning-medication's own run at 2026-07-21 09:00 UTC", "fixture " + displayPath(msg.Fixture.fixture), "+ mine.quarantine"} {
		if !strings.Contains(head, want) {
			t.Errorf("the Trace header lacks %q: %q", want, head)
		}
	}
	check := func(when string) {
		t.Helper()
		it, ok := selectedItem(tp)
		if name := engine.StageNames[tp.stage]; name != "exclude" || !ok || it.Key != "m0075" || it.DropKind != engine.DropQuarantined {
			t.Fatalf("%s: the trace is on stage %s, item %+v; want m0075 dropped at exclude as quarantined (the probe's failure: %v)", when, name, it, r.Result.Failures)
		}
		if !strings.Contains(r.Result.Failures[0], "dropped at stage exclude") {
			t.Fatalf("the probe's failure %q is not the one shown", r.Result.Failures[0])
		}
		v := view(tp)
		if !strings.Contains(v, "m0075") || !strings.Contains(v, "dropped [quarantined]") {
			t.Errorf("%s: the item list does not show m0075 dropped as quarantined:\n%s", when, v)
		}
	}
	check("opened")
	// R re-runs the recall on the fixture database, not the open one.
	tp = pressTrace(t, tp, "R")
	if tp.err != "" {
		t.Fatalf("re-run: %s", tp.err)
	}
	tp.stage, tp.item = 2, 0
	for i, it := range tp.stageItems() {
		if it.Key == "m0075" {
			tp.item = i
		}
	}
	check("re-run")
	open, err := recall.Recall(t.Context(), eng, engine.Query{Text: msg.Query.Text, At: msg.Query.At, K: 8, Budget: 2000, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !hasSurvivor(open, "m0075") {
		t.Fatal("m0075 does not survive on the open database: the test cannot tell the databases apart")
	}

	// ] steps the time on the fixture database; the header says so.
	tp = pressTrace(t, tp, "]")
	if tp.err != "" || !strings.Contains(originText(tp), "probe health-morning-medication's database, stepped from its time 2026-07-21 09:00 UTC") {
		t.Errorf("after ]: error %q, header %q", tp.err, originText(tp))
	}
	// A typed query is the curator's own: on the open database, no label.
	tp = pressTrace(t, tp, "/", "enter")
	if tp.origin != nil || tp.fx != nil || strings.Contains(view(tp), "own run") {
		t.Error("a typed query still carries the probe's origin")
	}

	// d: the set runs on the open database, where the curator's state
	// (m0075 active) makes the probe pass.
	g.keys("d")
	if v := g.view(); !strings.Contains(v, "runs on: the open database /srv/agent/open.db") || !strings.Contains(v, "· d: ") {
		t.Fatalf("d did not switch the database:\n%s", v)
	}
	g.runAll()
	if s := g.p.run.Summary; s.Passed != 2 || !strings.Contains(g.p.status, "on the open database") {
		t.Fatalf("on the open database: %d passed, status %q", s.Passed, g.p.status)
	}
	if g.p.fx != nil {
		t.Error("a run on the open database kept a fixture")
	}
	// The replaced fixture database is closed (by a command of its own);
	// a trace still showing it says so, and re-runs refuse with a reason.
	for deadline := time.Now().Add(10 * time.Second); !msg.Fixture.Closed(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the replaced fixture database is still open")
		}
	}
	if head := originText(kept); !strings.Contains(head, "closed: a newer run replaced that database") {
		t.Errorf("the trace of a closed fixture does not say so: %q", head)
	}
	if kept = pressTrace(t, kept, "R"); !strings.Contains(kept.err, "open the probe again from the Golden tab") {
		t.Errorf("R on a closed fixture: %q", kept.err)
	}
}

func hasSurvivor(t *engine.Trace, key string) bool {
	for _, s := range t.Survivors {
		if s.Key == key {
			return true
		}
	}
	return false
}

// Trace → mark survivors → to probe, and the set re-run: the new probe
// passes, and fails once the memory marked right is quarantined in the
// fixture.
func TestTraceBecomesProbe(t *testing.T) {
	set := fixtureSet(t, medicationProbes, "")
	eng, db := openDemo(t)
	g := newGoldenHarness(t, set, 120, 40)
	g.p.c.deps.Engine = eng
	g.loaded()
	g.runAll()
	g.moveTo("health-morning-medication")
	g.keys("enter")
	g.until("the trace request", func(goldenPane) bool { return len(g.traces) == 1 })
	tp := newTestTrace(eng, db, 120, 40)
	tp.c.goldenSet = g.p.c.goldenSet
	tp = openFromGolden(t, tp, g.traces[0])

	tp = pressTrace(t, tp, "M")
	if tp.mark == nil {
		t.Fatalf("M did not start marking: %s", tp.err)
	}
	right := -1
	for i, s := range tp.trace.Survivors {
		if s.Key == "m0075" {
			right = i
		}
	}
	if right < 0 {
		t.Fatalf("m0075 is not a survivor of the fixture trace: %+v", tp.trace.Survivors)
	}
	// The wheel moves the marking cursor too.
	next, _ := tp.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if tp = next.(tracePane); len(tp.mark.marks) > 1 && tp.mark.cursor != 1 {
		t.Fatalf("wheel down: cursor %d", tp.mark.cursor)
	}
	tp = pressTrace(t, tp, "g")
	for range right {
		tp = pressTrace(t, tp, "j")
	}
	tp = pressTrace(t, tp, "y")
	if !strings.Contains(view(tp), "✓ right") || !strings.Contains(view(tp), "1 right, 0 wrong") {
		t.Fatalf("the mark is not shown:\n%s", view(tp))
	}
	tp = pressTrace(t, tp, "w")
	if !tp.mark.writing || tp.mark.setIn.Value() != set || !tp.Typing() {
		t.Fatalf("w: dialog %v, set %q (want %q)", tp.mark.writing, tp.mark.setIn.Value(), set)
	}
	tp.mark.idIn.SetValue("medication-from-trace")
	next, cmd := tp.Update(press("enter"))
	tp = next.(tracePane)
	written, ok := cmd().(paneMsg)
	if !ok {
		t.Fatal("enter did not write the probe")
	}
	next, cmd = tp.Update(written.Msg)
	tp = next.(tracePane)
	if tp.err != "" || tp.mark != nil || !strings.Contains(tp.notice, "appended probe medication-from-trace") {
		t.Fatalf("after writing: error %q, notice %q", tp.err, tp.notice)
	}
	// The Golden tab reloads the set it shows.
	reload := cmd().(paneMsg)
	if reload.To != paneGolden {
		t.Fatalf("reload sent to %q", reload.To)
	}
	g.send(reload.Msg)
	g.loaded()
	if r, _ := g.p.selected(); r.ID != "medication-from-trace" || r.Probe == nil {
		t.Fatalf("the reloaded set is not on the new probe: %+v", r)
	}
	pr := g.p.set.Probes[len(g.p.set.Probes)-1]
	if !pr.At.Equal(g.traces[0].Trace.At) || pr.Query != "What medication do I take every morning?" ||
		len(pr.Expect.Present) != 1 || pr.Expect.Present[0].String() != "key:m0075" || len(pr.Expect.Absent) != 0 {
		t.Fatalf("probe written: %+v", pr)
	}

	result := func() *gold.ProbeResult {
		t.Helper()
		g.runAll()
		for i := range g.p.run.Probes {
			if g.p.run.Probes[i].ID == "medication-from-trace" {
				return &g.p.run.Probes[i]
			}
		}
		t.Fatal("the new probe did not run")
		return nil
	}
	if res := result(); !res.Pass {
		t.Fatalf("the new probe fails on the fixture: %v", res.Failures)
	}
	// The curator quarantines the memory they marked right, in the fixture.
	if err := os.WriteFile(gold.QuarantinePath(set), []byte("key:m0075\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.keys("o", "enter") // reload: the set picks up its quarantine file
	g.loaded()
	if res := result(); res.Pass || !strings.Contains(strings.Join(res.Failures, "\n"), `present "key:m0075"`) {
		t.Fatalf("after the quarantine the new probe still passes: %+v", res.Failures)
	}
}

// A stored trace an agent made over MCP becomes a probe too, with the
// agent's session; marks of both kinds: right is present, wrong is absent;
// with nothing marked w refuses.
func TestTraceMarksBothKinds(t *testing.T) {
	eng, db := openDemo(t)
	ctx := t.Context()
	tr, err := recall.Recall(ctx, eng, engine.Query{Text: "What medication do I take every morning?", Session: "agent-7", At: demoNow, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(tr)
	if err := db.SaveTrace(ctx, &engine.StoredTrace{Query: tr.Query, Session: "agent-7", Source: "mcp", At: tr.At, Trace: raw}, 10); err != nil {
		t.Fatal(err)
	}
	tp := pressTrace(t, newTestTrace(eng, db, 120, 40), "o", "enter")
	if tp.trace == nil || tp.source == "" || len(tp.trace.Survivors) < 2 {
		t.Fatalf("want the stored trace with two survivors: %s", tp.err)
	}
	tp = pressTrace(t, tp, "M", "w")
	if tp.mark.writing || !strings.Contains(tp.err, "mark at least one") {
		t.Fatalf("w with nothing marked: %q", tp.err)
	}
	tp = pressTrace(t, tp, "y", "x", "w")
	path := filepath.Join(t.TempDir(), "agent.yaml")
	tp.mark.setIn.SetValue(path)
	next, cmd := tp.Update(press("enter"))
	tp = next.(tracePane)
	next, _ = tp.Update(cmd().(paneMsg).Msg)
	tp = next.(tracePane)
	if tp.err != "" {
		t.Fatal(tp.err)
	}
	s, err := gold.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sel := func(i int) string {
		sv := tp.trace.Survivors[i]
		if sv.Key != "" {
			return "key:" + sv.Key
		}
		return "id:" + itoa(int(sv.ID))
	}
	pr := s.Probes[0]
	if pr.Session != "agent-7" || !pr.At.Equal(demoNow) {
		t.Errorf("probe session %q at %v, want the agent's session at the stored trace's time", pr.Session, pr.At)
	}
	if len(pr.Expect.Present) != 1 || pr.Expect.Present[0].String() != sel(0) || len(pr.Expect.Absent) != 1 || pr.Expect.Absent[0].String() != sel(1) {
		t.Fatalf("probe %+v, want present %s, absent %s", pr.Expect, sel(0), sel(1))
	}
}

// The Golden tab finds the project's set from a subdirectory: r works
// from anywhere in the project, not only its root.
func TestFindSetFromSubdirectory(t *testing.T) {
	want, err := filepath.Abs("../testdata/golden/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("testdata")
	got, tried := findSet(defaultGoldenSet)
	if got != want {
		t.Fatalf("found %q, want %q (tried %v)", got, want, tried)
	}
	if got, _ := findSet(filepath.Join(t.TempDir(), "absent.yaml")); got != "" {
		t.Errorf("an absolute path that does not exist was resolved to %q", got)
	}
}

// Through the root: in the marking mode y marks a survivor right (it is
// the copy key elsewhere in the Trace tab).
func TestMarkingKeysReachThePane(t *testing.T) {
	eng, db := openDemo(t)
	m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 120, 40)
	m = drive(t, m, OpenTraceMsg{Query: engine.Query{Text: "What medication do I take every morning?", At: demoNow}})
	m = drive(t, m, press("M"), press("y"), press("x"))
	tp, ok := m.panes[m.active].(tracePane)
	if !ok || tp.mark == nil {
		t.Fatalf("not marking on the Trace tab:\n%s", screen(m))
	}
	if r, w := countMarks(tp.mark.marks); r != 1 || w != 1 {
		t.Fatalf("marks %v after y x, want one right and one wrong:\n%s", tp.mark.marks, screen(m))
	}
}

// The whole program headless (teatest): Golden → r → n (the failing probe)
// → enter shows the Trace tab with the probe's own run on its fixture and
// the quarantined memory where it was lost.
func TestTeatestGoldenFailureToTrace(t *testing.T) {
	set := fixtureSet(t, medicationProbes, "key:m0075\n")
	eng, db := openDemo(t)
	m := newModel(context.Background(), Deps{Engine: eng, Store: db, OpenStore: goldenOpenStore,
		Now: func() time.Time { return demoNow }, NoColor: true})
	i := m.paneIndex(paneGolden)
	gp := m.panes[i].(goldenPane)
	gp.defaultSet = set
	m.panes[i] = gp

	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(30 * time.Second)
	tm.Type("2")
	teatest.WaitFor(t, tm.Output(), contains("mine.quarantine (a fresh DB each run)"), wait)
	tm.Type("r")
	teatest.WaitFor(t, tm.Output(), contains("1/2 passed"), wait)
	tm.Type("n")
	teatest.WaitFor(t, tm.Output(), contains("failure 1 of 1"), wait)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("health-morning-medication's own run"), wait)
	tm.Type("q")

	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	t.Cleanup(func() { final.Close() })
	tp, ok := final.panes[final.active].(tracePane)
	if !ok {
		t.Fatalf("enter did not open the Trace tab")
	}
	head := originText(tp)
	if tp.fx == nil || !strings.Contains(head, "fixture "+displayPath(tp.fx.fixture)) || !strings.HasSuffix(tp.fx.fixture, "testdata/demo.jsonl") {
		t.Errorf("the Trace header does not name the fixture: %q", head)
	}
	it, ok := selectedItem(tp)
	if engine.StageNames[tp.stage] != "exclude" || !ok || it.Key != "m0075" || it.DropKind != engine.DropQuarantined {
		t.Errorf("the trace opened on %s item %+v, want m0075 dropped as quarantined at exclude", engine.StageNames[tp.stage], it)
	}
}

// originText is the Trace header's origin lines (below the query and the
// time), joined.
func originText(p tracePane) string {
	lines := strings.Split(view(p), "\n")
	return strings.Join(lines[2:p.headerLines()], " ")
}
