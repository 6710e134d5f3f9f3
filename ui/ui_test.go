package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"memtrace/engine"
	"memtrace/engine/safetext"
)

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func seedMemories(n int) []*engine.Memory {
	ms := make([]*engine.Memory, n)
	for i := range ms {
		id := int64(i + 1)
		ms[i] = &engine.Memory{ID: id, Key: fmt.Sprintf("msg-%d", id), Content: fmt.Sprintf("memory number %d likes green tea", id),
			Kind: engine.KindFact, Type: "preference", Status: engine.StatusActive, Tier: engine.TierWarm,
			Scope: engine.ScopeGlobal, Importance: 0.5, CreatedAt: testNow}
	}
	return ms
}

func newTestModel(t testing.TB, s *memStore, w, h int) Model {
	t.Helper()
	if s.now == nil {
		s.now = func() time.Time { return testNow }
	}
	m := New(Deps{Store: s, Now: func() time.Time { return testNow }, NoColor: true})
	m = drive(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	m = drive(t, m, startMsg{})
	// Golden is the first tab here; these tests are about the Memories tab.
	return goTo(t, m, "Memories")
}

// drive sends msg to the model and keeps feeding back what the returned
// commands produce — the envelopes of async results — the way the program
// would, until nothing is left. Timers (spinner ticks) are not followed.
func drive(t testing.TB, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	queue := append([]tea.Msg{}, msgs...)
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 1000 {
			t.Fatal("drive: the model keeps producing messages")
		}
		msg := queue[0]
		queue = queue[1:]
		next, cmd := m.Update(msg)
		m = next.(Model)
		queue = append(queue, run(cmd)...)
	}
	return m
}

func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(50 * time.Millisecond):
		return nil // a timer: the test does not wait for it
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	case paneMsg, startMsg:
		return []tea.Msg{msg}
	}
	return nil
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func typeText(t testing.TB, m Model, s string) Model {
	for _, r := range s {
		m = drive(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func screen(m Model) string { return ansi.Strip(m.View().Content) }

func (m Model) memories() memoriesPane {
	for _, p := range m.panes {
		if mp, ok := p.(memoriesPane); ok {
			return mp
		}
	}
	panic("no memories pane")
}

func (m Model) captures() capturesPane {
	for _, p := range m.panes {
		if cp, ok := p.(capturesPane); ok {
			return cp
		}
	}
	panic("no captures pane")
}

func goTo(t testing.TB, m Model, title string) Model {
	for i, p := range m.panes {
		if p.Title() == title {
			return drive(t, m, press(fmt.Sprint(i+1)))
		}
	}
	t.Fatalf("no tab %q", title)
	return m
}

func TestTabs(t *testing.T) {
	m := newTestModel(t, &memStore{memories: seedMemories(3)}, 100, 30)
	top := strings.Split(screen(m), "\n")[0]
	if !strings.Contains(top, "1 Golden") || !strings.Contains(top, "2 Memories") || !strings.Contains(top, "3 Captures") {
		t.Fatalf("tab bar %q lacks the built tabs", top)
	}
	for _, absent := range []string{"Trace"} {
		if strings.Contains(top, absent) {
			t.Errorf("tab bar %q shows %s, which has no pane yet", top, absent)
		}
	}
	if got := m.panes[m.active].Title(); got != "Memories" {
		t.Fatalf("first tab = %s", got)
	}
	m = drive(t, m, press("tab"))
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("after tab: %s, want Captures", got)
	}
	m = drive(t, m, press("shift+tab"))
	if got := m.panes[m.active].Title(); got != "Memories" {
		t.Errorf("after shift+tab: %s, want Memories", got)
	}
	m = drive(t, m, press("3"))
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("after 3: %s, want Captures", got)
	}
	// A click on the Memories tab's label switches back.
	span := m.tabSpans()[1]
	m = drive(t, m, tea.MouseClickMsg{X: span[0] + 1, Y: 0, Button: tea.MouseLeft})
	if got := m.panes[m.active].Title(); got != "Memories" {
		t.Errorf("after clicking tab 2 at x=%d: %s", span[0]+1, got)
	}
	// The tab a click lands on is the one drawn there.
	x := strings.Index(top, "Captures")
	m = drive(t, m, tea.MouseClickMsg{X: safetext.Width(top[:x]), Y: 0, Button: tea.MouseLeft})
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("clicking on the word Captures opened %s", got)
	}
	next, cmd := m.Update(press("q"))
	_ = next
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
}

func TestResizeFitsEveryPane(t *testing.T) {
	m := newTestModel(t, &memStore{memories: seedMemories(50)}, 100, 30)
	for _, size := range [][2]int{{100, 30}, {200, 50}, {60, 20}} {
		m = drive(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for range m.panes {
			lines := strings.Split(screen(m), "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d %s: %d lines", size[0], size[1], m.panes[m.active].Title(), len(lines))
			}
			for i, l := range lines {
				if w := safetext.Width(l); w > size[0] {
					t.Errorf("%dx%d %s: line %d is %d cells: %q", size[0], size[1], m.panes[m.active].Title(), i, w, l)
				}
			}
			m = drive(t, m, press("tab"))
		}
	}
}

func TestHelpOverlayAndFooter(t *testing.T) {
	m := newTestModel(t, &memStore{memories: seedMemories(3)}, 120, 30)
	footer := lastLine(screen(m))
	for _, want := range []string{"filter", "quarantine", "? all keys", "q quit"} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer %q lacks %q", footer, want)
		}
	}
	m = drive(t, m, press("?"))
	if !m.showHelp {
		t.Fatal("? did not open the help")
	}
	s := screen(m)
	for _, want := range []string{"undo last curator batch", "importance +0.1", "next tab", "go to tab"} {
		if !strings.Contains(s, want) {
			t.Errorf("full help lacks %q", want)
		}
	}
	m = drive(t, m, press("x")) // keys do not act behind the overlay
	if len(m.memories().batches) != 0 || m.memories().writes != 0 {
		t.Error("x behind the help overlay started a write")
	}
	m = drive(t, m, press("esc"))
	if m.showHelp {
		t.Error("esc did not close the help")
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}
