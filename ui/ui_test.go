package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"memtrace/internal/safetext"
)

// designTabs is the tab order DESIGN.md gives.
func designTabs() []string { return []string{"Trace", "Golden", "Curate", "Memories", "Captures"} }

func TestTabs(t *testing.T) {
	m := newTestModel(t, openStore(t, newMemories(3), nil), 140, 30)
	top := strings.Split(screen(m), "\n")[0]

	// The tabs that exist come in DESIGN.md's order, numbered from 1, and
	// the built ones are all there.
	var titles []string
	for i, p := range m.panes {
		titles = append(titles, p.Title())
		if label := fmt.Sprintf("%d %s", i+1, p.Title()); !strings.Contains(top, label) {
			t.Errorf("tab bar %q lacks %q", top, label)
		}
	}
	order := designTabs()
	next := 0
	for _, title := range titles {
		for next < len(order) && order[next] != title {
			next++
		}
		if next == len(order) {
			t.Fatalf("tabs %v are not in the order %v", titles, order)
		}
	}
	for _, built := range []string{"Curate", "Memories", "Captures"} {
		if m.tabIndex(built) < 0 {
			t.Errorf("no %s tab in %v", built, titles)
		}
	}
	if m.tabIndex("Curate") != m.tabIndex("Memories")-1 || m.tabIndex("Memories") != m.tabIndex("Captures")-1 {
		t.Errorf("tabs %v: want Curate, Memories, Captures side by side", titles)
	}
	if got := m.panes[m.active].Title(); got != titles[0] {
		t.Fatalf("the program opens on %s, want the first tab %s", got, titles[0])
	}

	mem, capt := m.tabIndex("Memories"), m.tabIndex("Captures")
	m = goTo(t, m, "Memories")
	m = drive(t, m, press("tab"))
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("tab after Memories: %s, want Captures", got)
	}
	m = drive(t, m, press("tab"))
	if got := m.panes[m.active].Title(); got != titles[0] {
		t.Errorf("tab after the last tab: %s, want %s (wraps)", got, titles[0])
	}
	m = drive(t, m, press("shift+tab"))
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("shift+tab from the first tab: %s, want Captures", got)
	}
	m = drive(t, m, press("shift+tab"))
	if got := m.panes[m.active].Title(); got != "Memories" {
		t.Errorf("after shift+tab: %s, want Memories", got)
	}
	m = drive(t, m, press(fmt.Sprint(capt+1)))
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("after %d: %s, want Captures", capt+1, got)
	}
	// A click on the Memories tab's label switches to it.
	span := m.tabSpans()[mem]
	m = drive(t, m, tea.MouseClickMsg{X: span[0] + 1, Y: 0, Button: tea.MouseLeft})
	if got := m.panes[m.active].Title(); got != "Memories" {
		t.Errorf("after clicking tab %d at x=%d: %s", mem+1, span[0]+1, got)
	}
	// The tab a click lands on is the one drawn there.
	top = strings.Split(screen(m), "\n")[0]
	x := strings.Index(top, "Captures")
	m = drive(t, m, tea.MouseClickMsg{X: safetext.Width(top[:x]), Y: 0, Button: tea.MouseLeft})
	if got := m.panes[m.active].Title(); got != "Captures" {
		t.Errorf("clicking on the word Captures opened %s", got)
	}
	next2, cmd := m.Update(press("q"))
	_ = next2
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
}

func TestResizeFitsEveryPane(t *testing.T) {
	m := newTestModel(t, openStore(t, newMemories(50), seedCaptures()), 100, 30)
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
	m := newTestModel(t, openStore(t, newMemories(3), nil), 120, 30)
	m = goTo(t, m, "Memories")
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
