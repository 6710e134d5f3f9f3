package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"memtrace/engine"
	gold "memtrace/golden"
	"memtrace/internal/safetext"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// The project's golden set, seen from the ui package directory.
const (
	demoSet      = "../testdata/golden/demo.yaml"
	demoBaseline = "../testdata/golden/demo.baseline.json"
)

func goldenOpenStore(ctx context.Context, path string) (engine.Store, error) {
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// goldenHarness drives a Golden pane the way the program would: every
// command runs on its own goroutine, and what comes back is fed to Update
// one message at a time on the test goroutine. It follows timers (the
// progress bar's frames) too, so routing them back is tested.
type goldenHarness struct {
	t      *testing.T
	p      goldenPane
	msgs   chan tea.Msg
	stop   chan struct{}
	got    map[string]int // what the pane received, by kind
	traces []OpenTraceMsg // OpenTraceMsg the pane sent to the root
	views  []string       // views captured while a run was in flight
}

func newGoldenHarness(t *testing.T, defaultSet string, w, h int) *goldenHarness {
	t.Helper()
	styles := NewStyles(true, true)
	db := storetest.MustOpen(t)
	c := &common{ctx: context.Background(), styles: &styles, res: &resources{}, deps: Deps{
		Engine:    openEngine(t, db),
		Store:     db,
		OpenStore: goldenOpenStore,
		Now:       func() time.Time { return time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC) },
		NoColor:   true,
	}}
	p := newGoldenPane(c)
	p.defaultSet = defaultSet
	g := &goldenHarness{t: t, p: p.SetSize(w, h).(goldenPane), msgs: make(chan tea.Msg, 4096), stop: make(chan struct{}), got: map[string]int{}}
	t.Cleanup(func() {
		close(g.stop)
		if err := c.res.closeAll(); err != nil {
			t.Errorf("closing the fixture databases: %v", err)
		}
	})
	g.send(startMsg{})
	return g
}

func (g *goldenHarness) do(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				g.do(c)
			}
			return
		}
		if msg == nil {
			return
		}
		select {
		case g.msgs <- msg:
		case <-g.stop:
		}
	}()
}

// send delivers msg to the pane and runs what it returns.
func (g *goldenHarness) send(msg tea.Msg) {
	next, cmd := g.p.Update(msg)
	g.p = next.(goldenPane)
	g.do(cmd)
}

func (g *goldenHarness) keys(keys ...string) {
	for _, k := range keys {
		g.send(goldenKey(k))
	}
}

func goldenKey(k string) tea.KeyPressMsg {
	switch k {
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	}
	return press(k)
}

func (g *goldenHarness) typeText(s string) {
	for _, r := range s {
		g.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// until processes the messages coming back until cond holds.
func (g *goldenHarness) until(what string, cond func(p goldenPane) bool) {
	g.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond(g.p) {
		select {
		case msg := <-g.msgs:
			switch msg := msg.(type) {
			case paneMsg:
				if msg.To != paneGolden {
					g.t.Fatalf("an envelope for %q", msg.To)
				}
				switch msg.Msg.(type) {
				case goldenProgressMsg:
					g.got["progress"]++
				case progress.FrameMsg:
					g.got["frame"]++
				case goldenRunMsg:
					g.got["run"]++
				}
				g.send(msg.Msg)
				if g.p.progress.running {
					g.views = append(g.views, g.view())
				}
			case OpenTraceMsg:
				g.traces = append(g.traces, msg)
			default:
				g.t.Fatalf("the pane sent a bare %T", msg)
			}
		case <-deadline:
			g.t.Fatalf("timed out waiting for %s; status %q, error %q", what, g.p.status, g.p.err)
		}
	}
}

func (g *goldenHarness) view() string { return ansi.Strip(g.p.View()) }

func (g *goldenHarness) loaded() {
	g.t.Helper()
	g.until("the set", func(p goldenPane) bool { return !p.loading })
	if g.p.set == nil {
		g.t.Fatalf("no set loaded: status %q, error %q", g.p.status, g.p.err)
	}
}

func (g *goldenHarness) runAll() {
	g.t.Helper()
	g.keys("r")
	if !g.p.progress.running || !g.p.Busy() {
		g.t.Fatal("r did not start a run")
	}
	g.until("the run", func(p goldenPane) bool { return !p.progress.running })
	if g.p.err != "" {
		g.t.Fatalf("run failed: %s", g.p.err)
	}
}

// moveTo puts the cursor on the probe id with j presses.
func (g *goldenHarness) moveTo(id string) goldenRow {
	g.t.Helper()
	g.keys("g")
	for range g.p.probes.rows {
		if r, _ := g.p.probes.selected(); r.ID == id {
			return r
		}
		g.keys("j")
	}
	g.t.Fatalf("no row %s", id)
	return goldenRow{}
}

func TestGoldenRunAllOnDemo(t *testing.T) {
	g := newGoldenHarness(t, demoSet, 140, 40)
	g.loaded()
	n := demoProbes(t)
	if got := len(g.p.probes.rows); got != n {
		t.Fatalf("%d rows before the run, want the set's %d probes", got, n)
	}
	if g.p.base == nil || g.p.basePath != demoBaseline {
		t.Fatalf("baseline %q not loaded beside the set (err %q)", g.p.basePath, g.p.err)
	}
	if v := g.view(); !strings.Contains(v, fmt.Sprintf("not run yet · baseline: %d/%d passed", n, n)) || !strings.Contains(v, "(pass)") {
		t.Fatalf("before a run the tab shows the baseline's verdicts:\n%s", v)
	}

	g.runAll()
	s := g.p.run.Summary
	if s.Probes != n || s.Passed != n {
		t.Fatalf("demo run: %d/%d passed, want %d/%d", s.Passed, s.Probes, n, n)
	}
	if g.got["progress"] == 0 || g.got["frame"] == 0 {
		t.Errorf("no progress reached the pane: %v", g.got)
	}
	var sawBar, sawIngest bool
	ingest := regexp.MustCompile(`building the fixture: (\d+)/(\d+) messages captured`)
	for _, v := range g.views {
		if strings.Contains(v, "░") && (strings.Contains(v, fmt.Sprintf("/%d probes", n)) || strings.Contains(v, "building the fixture")) {
			sawBar = true
		}
		// The fixture phase reports its messages, not a bar stuck at 0%.
		if m := ingest.FindStringSubmatch(v); m != nil && m[1] != "0" && m[2] != "0" {
			sawIngest = true
		}
	}
	if !sawIngest {
		t.Errorf("the fixture phase never showed how many messages were captured (%d views)", len(g.views))
	}
	if !sawBar {
		t.Errorf("no progress bar on screen during the run (%d views):\n%s", len(g.views), strings.Join(g.views, "\n\n"))
	}
	// The bar's frames come back to the pane (in envelopes) until it shows
	// the finished run.
	g.until("the bar to settle", func(p goldenPane) bool { return !p.progress.bar.IsAnimating() })
	if bar := ansi.Strip(g.p.progress.bar.View()); !strings.Contains(bar, "100%") || strings.Contains(bar, "░") {
		t.Errorf("bar after the run: %q", bar)
	}

	v := g.view()
	for _, want := range []string{fmt.Sprintf("%d/%d passed (=)", n, n), "pass rate 100.0% (=)", "present recall 1.000 (=)", "vs baseline: no regression"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// The list takes the height the detail does not need: more than the
	// two fifths it had.
	if n := g.p.probes.listRows(); n <= (40-goldenHeaderLines-1)*2/5 {
		t.Errorf("the probe list has %d rows of 40 lines", n)
	}
	lines := strings.Split(v, "\n")
	if len(lines) != 40 {
		t.Errorf("view has %d lines, want the pane's 40", len(lines))
	}
	// Korean queries align: every probe row is exactly the pane's width
	// in cells, and the Korean greeting is on screen.
	rows := lines[goldenHeaderLines : goldenHeaderLines+g.p.probes.listRows()]
	for _, l := range rows {
		if w := safetext.Width(l); w != 140 {
			t.Errorf("row is %d cells, want 140: %q", w, l)
		}
		if !strings.HasPrefix(l, "PASS") {
			t.Errorf("row does not pass: %q", l)
		}
	}
	if !strings.Contains(v, "greeting-annyeong") || !strings.Contains(v, "안녕") {
		t.Errorf("the Korean probe is not listed:\n%s", v)
	}
}

// flippedBaseline copies the demo baseline into dir with one probe turned
// into a failure whose survivors differ: its first survivor removed (it
// "enters" in the new run) and a made-up one, carrying a terminal escape,
// added (it "leaves").
func flippedBaseline(t *testing.T, dir, id string) (path string, removed gold.SurvivorRef) {
	t.Helper()
	base, err := gold.LoadRun(demoBaseline)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i := range base.Probes {
		p := &base.Probes[i]
		if p.ID != id {
			continue
		}
		found = true
		removed = p.Survivors[0]
		p.Pass = false
		p.Failures = []string{"flipped by the test"}
		p.Survivors = append(p.Survivors[1:], gold.SurvivorRef{ID: 9999, Key: "m9999", Text: "옛날 기억 \x1b[31mred\x1b[0m"})
	}
	if !found {
		t.Fatalf("no probe %s in the demo baseline", id)
	}
	base.Summary.Passed--
	base.Summary.Failed++
	base.Summary.PassRate = float64(base.Summary.Passed) / float64(base.Summary.Probes)
	path = filepath.Join(dir, "flipped.baseline.json")
	if err := base.Save(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, removed
}

func (g *goldenHarness) chooseBaseline(path string) {
	g.t.Helper()
	g.keys("b")
	if !g.p.Typing() {
		g.t.Fatal("b did not open the path input")
	}
	g.keys("ctrl+u")
	g.typeText(path)
	g.keys("enter")
	g.until("the baseline", func(p goldenPane) bool { return !p.loading })
	if g.p.basePath != path || g.p.err != "" {
		g.t.Fatalf("baseline %q not chosen: %q", path, g.p.err)
	}
}

func TestGoldenDiffAgainstChangedBaseline(t *testing.T) {
	const flipped = "health-peanut-allergy"
	path, removed := flippedBaseline(t, t.TempDir(), flipped)
	g := newGoldenHarness(t, demoSet, 140, 44)
	g.loaded()
	g.chooseBaseline(path)
	g.runAll()

	if g.p.diff == nil || g.p.diff.Count(gold.ChangeFixed) != 1 {
		t.Fatalf("diff against the flipped baseline: %+v", g.p.diff)
	}
	v := g.view()
	n := demoProbes(t)
	for _, want := range []string{fmt.Sprintf("%d/%d passed (+1)", n, n), fmt.Sprintf("pass rate 100.0%% (+%.1f pp)", 100/float64(n)), "fixed 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("header lacks %q:\n%s", want, v)
		}
	}
	r := g.moveTo(flipped)
	if r.delta() != "fixed" || r.verdict() != "PASS" {
		t.Fatalf("row %s: Δ %q, result %q; want fixed, PASS", r.ID, r.delta(), r.verdict())
	}
	v = g.view()
	var row string
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, flipped) && strings.HasPrefix(l, "PASS") {
			row = l
		}
	}
	if !strings.Contains(row, "fixed") {
		t.Errorf("the list row does not show Δ fixed: %q", row)
	}
	for _, want := range []string{
		"── " + flipped + " · PASS · fixed (baseline: fail)",
		"+ entered key:" + removed.Key,
		"− left    key:m9999  옛날 기억 ␛[31mred",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(g.p.View(), "\x1b[31m") {
		t.Error("a survivor's escape sequence reached the screen")
	}
	// Probes that did not move say so.
	if r := g.moveTo("greeting-hi"); r.delta() != "=" {
		t.Errorf("greeting-hi Δ %q, want =", r.delta())
	}
}

func TestGoldenEnterOpensTrace(t *testing.T) {
	g := newGoldenHarness(t, demoSet, 120, 36)
	g.loaded()
	g.runAll()

	r := g.moveTo("project-staging-port")
	g.keys("enter")
	g.until("the trace request", func(goldenPane) bool { return len(g.traces) == 1 })
	q := g.traces[0].Query
	if q.Text != r.Probe.Query || q.Project != "garden-app" || q.K != 8 || q.Budget != 2000 || !q.ReadOnly {
		t.Errorf("OpenTraceMsg for %s: %+v", r.ID, q)
	}
	if want := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC); !q.At.Equal(want) || !q.At.Equal(r.Result.At) {
		t.Errorf("trace at %v, want the run's %v", q.At, want)
	}

	r = g.moveTo("time-fact-survives-90d")
	g.keys("t")
	g.until("the second trace request", func(goldenPane) bool { return len(g.traces) == 2 })
	if q := g.traces[1].Query; q.Text != r.Probe.Query || !q.At.Equal(time.Date(2026, 10, 19, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("t on %s: %+v (want at defaults.at + 90d)", r.ID, q)
	}
}

func TestGoldenSaveBaseline(t *testing.T) {
	path, _ := flippedBaseline(t, t.TempDir(), "date-birthday-ko")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGoldenHarness(t, demoSet, 140, 40)
	g.loaded()
	g.keys("S")
	if g.p.confirmSave || !strings.Contains(g.p.err, "r runs the set first") {
		t.Fatalf("S before a run: confirm %v, error %q", g.p.confirmSave, g.p.err)
	}
	g.chooseBaseline(path)
	g.runAll()

	g.keys("S")
	if !g.p.confirmSave || !g.p.Typing() {
		t.Fatal("S did not ask for confirmation")
	}
	n := demoProbes(t)
	want := fmt.Sprintf("Save this run (%d/%d passed) as the baseline %s? It replaces one with %d/%d passed. y/n", n, n, path, n-1, n)
	// The line wraps at word boundaries: compare the words.
	if v := strings.Join(strings.Fields(g.view()), " "); !strings.Contains(v, want) {
		t.Fatalf("confirmation %q not on screen:\n%s", want, g.view())
	}
	g.keys("n")
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) || g.p.confirmSave {
		t.Fatal("n still wrote the baseline")
	}

	g.keys("S", "y")
	g.until("the save", func(p goldenPane) bool { return !p.saving })
	if g.p.err != "" {
		t.Fatal(g.p.err)
	}
	back, err := gold.LoadRun(path)
	if err != nil {
		t.Fatal(err)
	}
	var want1, got bytes.Buffer
	if err := g.p.run.WriteJSON(&want1); err != nil {
		t.Fatal(err)
	}
	if err := back.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want1.Bytes(), got.Bytes()) || !reflect.DeepEqual(back.Summary, g.p.run.Summary) {
		t.Fatalf("saved baseline differs from the run:\n%s\nvs\n%s", got.String(), want1.String())
	}
	if g.p.diff == nil || len(g.p.diff.Probes) != 0 || g.p.diff.Regressed() {
		t.Errorf("after saving, the run still differs from its baseline: %+v", g.p.diff)
	}
	if !strings.Contains(g.view(), "saved the run as the baseline "+path) {
		t.Errorf("no saved status:\n%s", g.view())
	}
}

func TestGoldenCancelAndTypedSet(t *testing.T) {
	g := newGoldenHarness(t, filepath.Join(t.TempDir(), "absent.yaml"), 160, 30)
	g.until("the missing default", func(p goldenPane) bool { return !p.loading })
	if g.p.set != nil || !strings.Contains(g.view(), "press o and type the path of a set file") {
		t.Fatalf("missing default set:\n%s", g.view())
	}
	g.keys("o")
	g.typeText(demoSet)
	g.keys("enter")
	g.loaded()
	if g.p.setPath != demoSet || len(g.p.probes.rows) != demoProbes(t) {
		t.Fatalf("typed set %q: %d rows", g.p.setPath, len(g.p.probes.rows))
	}

	g.keys("r", "esc")
	g.until("the cancelled run", func(p goldenPane) bool { return !p.progress.running })
	if g.p.run != nil || g.p.err != "" || !strings.Contains(g.p.status, "run cancelled") {
		t.Fatalf("esc: run %v, error %q, status %q", g.p.run != nil, g.p.err, g.p.status)
	}
	// The tab still runs after a cancel.
	g.runAll()
	if g.p.run.Summary.Passed != demoProbes(t) {
		t.Fatalf("rerun after cancel: %d passed", g.p.run.Summary.Passed)
	}
}

// demoProbes is the number of probes of the project's set (it grows; every
// probe of it passes on the demo).
func demoProbes(t *testing.T) int {
	t.Helper()
	set, err := gold.Load(demoSet)
	if err != nil {
		t.Fatal(err)
	}
	return len(set.Probes)
}
