package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"memtrace/engine"
)

// demoModel is the whole UI on the demo database (real capture pipeline,
// SQLite in t.TempDir()).
func demoModel(t *testing.T, w, h int) (Model, *engine.Engine) {
	t.Helper()
	eng, db := openDemo(t)
	return startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, w, h), eng
}

// typePalette types line into the open palette (":" first).
func typePalette(t *testing.T, m Model, line string) Model {
	t.Helper()
	m = drive(t, m, press(":"))
	if !m.pal.open {
		t.Fatalf(": did not open the palette:\n%s", screen(m))
	}
	return typeText(t, m, line)
}

func activeTitle(m Model) string {
	p, _ := m.activePane()
	return p.Title()
}

// TestPaletteRecallOpensTrace: from the Memories tab, ":rec" tab completes
// the command, and "recall 충주 사과 @+30d" opens Trace with that query
// recalled 30 days after the database's now (engine.ParseAt's grammar).
func TestPaletteRecallOpensTrace(t *testing.T) {
	m, _ := demoModel(t, 120, 40)
	m = goTo(t, m, "Memories")
	m = typePalette(t, m, "rec")
	m = drive(t, m, press("tab"))
	if got := m.pal.input.Value(); got != "recall " {
		t.Fatalf("tab after :rec gives %q, want \"recall \"", got)
	}
	m = typeText(t, m, "충주 사과 @")
	if !strings.Contains(screen(m), "recall at +30d") {
		t.Errorf("no time completions after @:\n%s", screen(m))
	}
	m = typeText(t, m, "+30d")
	m = drive(t, m, press("enter"))
	if m.pal.open {
		t.Fatalf("the palette stayed open: %s", m.pal.err)
	}
	if activeTitle(m) != "Trace" {
		t.Fatalf("active tab %s, want Trace", activeTitle(m))
	}
	tr := m.panes[m.paneIndex(paneTrace)].(tracePane).trace
	if tr == nil {
		t.Fatal("no trace ran")
	}
	if want := demoNow.AddDate(0, 0, 30); tr.Query != "충주 사과" || !tr.At.Equal(want) {
		t.Errorf("recall %q at %v, want 충주 사과 at %v", tr.Query, tr.At, want)
	}
	if !strings.Contains(screen(m), "[+30d]") {
		t.Errorf("the time line does not name the step +30d:\n%s", screen(m))
	}
	checkFrame(t, m, 120, 40)
}

// TestPaletteErrorsStayInline: a bad time, an unknown command and an
// unknown action keep the palette open with the line and say what to do.
func TestPaletteErrorsStayInline(t *testing.T) {
	m, _ := demoModel(t, 80, 24)
	for _, c := range []struct{ line, want string }{
		{"recall 사과 @+3x", "bad time offset"},
		{"recall", "recall needs a query"},
		{"nope", "unknown command :nope"},
		{"golden fly", "no \"fly\" here"},
		{"tab 9", "use 1-5"},
		{"filter stat:x", "unknown field stat"},
		{"batch zzz", "batch"},
		{"help me", "takes no arguments"},
	} {
		m = typePalette(t, m, c.line)
		m = drive(t, m, press("enter"))
		if !m.pal.open || !strings.Contains(m.pal.err, c.want) {
			t.Errorf(":%s: open %v, error %q, want it to contain %q", c.line, m.pal.open, m.pal.err, c.want)
		}
		if got := m.pal.input.Value(); got != c.line {
			t.Errorf(":%s: the line became %q; an error must keep it", c.line, got)
		}
		if !strings.Contains(strings.Join(strings.Fields(screen(m)), " "), strings.Join(strings.Fields(firstRunes(m.pal.err, 20)), " ")) {
			t.Errorf(":%s: the error is not on screen:\n%s", c.line, screen(m))
		}
		checkFrame(t, m, 80, 24)
		m = drive(t, m, press("esc"))
		if m.pal.open {
			t.Fatal("esc did not close the palette")
		}
	}
}

// TestPaletteHistory: up walks back through the commands run, down comes
// back to the line being typed.
func TestPaletteHistory(t *testing.T) {
	m, _ := demoModel(t, 100, 30)
	for _, l := range []string{"tab memories", "tab captures"} {
		m = drive(t, typePalette(t, m, l), press("enter"))
	}
	if activeTitle(m) != "Captures" {
		t.Fatalf("active %s after :tab captures", activeTitle(m))
	}
	m = typePalette(t, m, "reca")
	m = drive(t, m, press("up"))
	if got := m.pal.input.Value(); got != "tab captures" {
		t.Fatalf("up: %q, want the newest command", got)
	}
	m = drive(t, m, press("up"), press("up"))
	if got := m.pal.input.Value(); got != "tab memories" {
		t.Fatalf("up up up: %q, want the oldest command", got)
	}
	m = drive(t, m, press("down"), press("down"))
	if got := m.pal.input.Value(); got != "reca" {
		t.Fatalf("down past the newest: %q, want the typed line back", got)
	}
}

// TestPaletteCompletesFromTheTabs: the tabs' actions come from their key
// bindings, batches from the Curate history, memories from the selection;
// :golden run runs the set's r, :batch shows the batch, :memory the
// memory, :q quits.
func TestPaletteCompletesFromTheTabs(t *testing.T) {
	m, _ := demoModel(t, 120, 40)
	m = typePalette(t, m, "golden r")
	m = drive(t, m, press("tab"))
	if got := m.pal.input.Value(); got != "golden run-all" {
		t.Errorf(":golden r + tab = %q, want golden run-all (the r key's help)", got)
	}
	m = drive(t, m, press("esc"))

	// A curator action in Memories makes a batch; :batch completes it.
	m = goTo(t, m, "Memories")
	m = drive(t, m, press("x"))
	mp0 := m.memories()
	mem, _ := mp0.list.selected()
	if mem.Status != engine.StatusQuarantined {
		t.Fatalf("x did not quarantine memory %d: %s", mem.ID, mem.Status)
	}
	batch := m.memories().batches[0]
	m = typePalette(t, m, "batch ")
	if len(m.pal.cands) == 0 || m.pal.cands[0].Text != "batch "+batch {
		t.Fatalf(":batch completions %+v, want the newest batch %s first", m.pal.cands, batch)
	}
	m = drive(t, m, press("tab"), press("enter"))
	cp := m.curate()
	if activeTitle(m) != "Curate" || cp.mode != modeHistory || cp.hist.batches()[cp.hist.list.cursor].Batch != batch {
		t.Fatalf(":batch %s: tab %s, mode %v, cursor on %v", batch, activeTitle(m), cp.mode, cp.hist.batches()[cp.hist.list.cursor].Batch)
	}
	if !strings.Contains(screen(m), batch) {
		t.Errorf("the history does not show %s:\n%s", batch, screen(m))
	}

	// :memory ID opens Memories on that memory with its detail.
	m = drive(t, typePalette(t, m, "memory 7"), press("enter"))
	mp := m.memories()
	sel, ok := mp.list.selected()
	if activeTitle(m) != "Memories" || !ok || sel.ID != 7 || !mp.detail {
		t.Fatalf(":memory 7: tab %s, selected %+v, detail %v", activeTitle(m), sel, mp.detail)
	}

	// A tab action runs the tab's key: :memories restore restores it.
	m = drive(t, typePalette(t, m, "memory "+mem.Key), press("enter"))
	m = drive(t, typePalette(t, m, "memories restore"), press("enter"))
	if got := memoryStatus(t, m, mem.ID); got != engine.StatusActive {
		t.Errorf(":memories restore left memory %d %s", mem.ID, got)
	}

	next, cmd := typePalette(t, m, "q").Update(press("enter"))
	if _, ok := cmd().(tea.QuitMsg); !ok || next.(Model).pal.open {
		t.Errorf(":q did not quit")
	}
}

func memoryStatus(t *testing.T, m Model, id int64) engine.Status {
	t.Helper()
	mem, err := m.c.deps.Store.GetMemory(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return mem.Status
}

// TestPaletteNotWhileTyping: in an input ":" is a character.
func TestPaletteNotWhileTyping(t *testing.T) {
	m, _ := demoModel(t, 100, 30)
	m = goTo(t, m, "Memories")
	m = drive(t, m, press("/"), press(":"))
	if m.pal.open || m.memories().input.Value() != ":" {
		t.Fatalf("':' in the filter: palette open %v, filter %q", m.pal.open, m.memories().input.Value())
	}
}

// TestPaletteKoreanAligns: Korean in the input and the completions keeps
// every line of the frame inside the terminal, the frame its height.
func TestPaletteKoreanAligns(t *testing.T) {
	m, _ := demoModel(t, 80, 24)
	m = typePalette(t, m, "recall 충주 사과가 정말 달고 맛있었어 @")
	checkFrame(t, m, 80, 24)
	if !strings.Contains(screen(m), ":recall 충주 사과가") {
		t.Errorf("the palette line does not show the Korean query:\n%s", screen(m))
	}
	m = drive(t, m, press("tab"))
	if got := m.pal.input.Value(); got != "recall 충주 사과가 정말 달고 맛있었어 @now" {
		t.Errorf("tab after @: %q", got)
	}
	checkFrame(t, m, 80, 24)
}

// checkFrame: exactly h lines, none wider than w.
func checkFrame(t *testing.T, m Model, w, h int) {
	t.Helper()
	lines := strings.Split(screen(m), "\n")
	if len(lines) != h {
		t.Errorf("the frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("line %d is %d cells wide (> %d): %q", i, lipgloss.Width(l), w, l)
		}
	}
}

// TestPaletteHelpFromTheRegistry: ? lists every command of the registry.
func TestPaletteHelpFromTheRegistry(t *testing.T) {
	m, _ := demoModel(t, 200, 50)
	m = drive(t, typePalette(t, m, "help"), press("enter"))
	if !m.showHelp {
		t.Fatal(":help did not open the key overlay")
	}
	s := strings.Join(strings.Fields(screen(m)), " ")
	for _, c := range paletteCommands() {
		if !strings.Contains(s, ":"+c.Name) {
			t.Errorf("? does not list :%s", c.Name)
		}
	}
}

// TestPaletteCommandsDocumented: README.md and docs/tui.md list every
// command of the registry.
func TestPaletteCommandsDocumented(t *testing.T) {
	for _, doc := range []string{"../README.md", "../docs/tui.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range paletteCommands() {
			if !strings.Contains(string(b), "`:"+c.Name) {
				t.Errorf("%s does not list :%s", doc, c.Name)
			}
		}
	}
}

// TestPaletteCommandIDsUnique: every command name and alias names one
// command, and the Memories tab's "importance +0.1" and "importance −0.1"
// are two actions that each do what their key does.
func TestPaletteCommandIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range paletteCommands() {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if seen[n] {
				t.Errorf("two commands are named %q", n)
			}
			seen[n] = true
		}
	}
	for _, c := range []struct{ in, want string }{
		{"importance +0.1", "importance-plus-0-1"}, {"importance −0.1", "importance-minus-0-1"},
		{"importance -0.1", "importance-minus-0-1"}, {"now vs +N", "now-vs-n"}, {"re-run", "re-run"},
		{"다음 실패", "다음-실패"},
	} {
		if got := slug(c.in); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	m, eng := demoModel(t, 120, 40)
	m = goTo(t, m, "Memories")
	mp := m.panes[m.paneIndex(paneMemories)].(memoriesPane)
	mem, ok := mp.list.selected()
	if !ok {
		t.Fatal("no memory selected in Memories")
	}
	before := mem.Importance
	for _, c := range []struct {
		action string
		sign   float64
	}{{"importance-plus", 1}, {"importance-minus", -1}} {
		m = drive(t, typePalette(t, m, "memories "+c.action), press("enter"))
		if m.pal.open {
			t.Fatalf(":memories %s: %s", c.action, m.pal.err)
		}
		got, _ := eng.Memory(mem.ID)
		if d := (got.Importance - before) * c.sign; d <= 0 {
			t.Errorf(":memories %s moved memory %d's importance from %.2f to %.2f", c.action, mem.ID, before, got.Importance)
		}
		before = got.Importance
	}
}
