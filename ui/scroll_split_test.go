package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"memtrace/engine"
	"memtrace/tiers"
)

// scrollToEnd sends msg until the screen's position line says "end" (or
// gives up) and returns the model and every line seen on the way.
func scrollToEnd(t *testing.T, m Model, msg tea.Msg) (Model, map[string]bool) {
	t.Helper()
	seen := map[string]bool{}
	for i := 0; i < 40; i++ {
		s := screen(m)
		for _, l := range strings.Split(s, "\n") {
			seen[strings.TrimSpace(l)] = true
		}
		if strings.Contains(s, "· end ·") {
			return m, seen
		}
		m = drive(t, m, msg)
	}
	t.Fatalf("%v never reached the end:\n%s", msg, screen(m))
	return m, seen
}

// demoSplit is the demo's Trace split view at +30d, at w×h.
func demoSplit(t *testing.T, w, h int) Model {
	t.Helper()
	eng, db := openDemo(t)
	if _, err := tiers.Heartbeat(context.Background(), eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, w, h)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "충주 사과")
	for _, k := range []string{"enter", "]", "]", "]", "s"} {
		m = drive(t, m, press(k))
	}
	if !m.trace().split || m.trace().cmp == nil {
		t.Fatalf("no split view:\n%s", screen(m))
	}
	return m
}

// TestTraceSplitScrollsToItsEnd at 80×24: the split view is taller than the
// room it has; J, pgdn and the wheel each bring its last row and both
// summary lines ("forgotten by", "left by"/"recognised at") on screen, with
// a position line; K and pgup go back; the scroll keys are listed only
// while they move.
func TestTraceSplitScrollsToItsEnd(t *testing.T) {
	base := demoSplit(t, 80, 24)
	all := base.trace().splitView()
	if len(all) <= base.trace().bodyRows() {
		t.Fatalf("the demo's split fits %d rows (%d lines): the test needs one that overflows", base.trace().bodyRows(), len(all))
	}
	if !hasDesc(listedBindings(base), "scroll split down") || hasDesc(listedBindings(base), "scroll split up") {
		t.Errorf("at the top the footer should offer J and not K")
	}
	lastLine := strings.TrimSpace(stripped(all[len(all)-1]))
	for _, msg := range []tea.Msg{press("J"), press("pgdown"), tea.MouseWheelMsg{X: 60, Y: 10, Button: tea.MouseWheelDown}} {
		m, seen := scrollToEnd(t, fork(base), msg)
		if !seenWith(seen, "forgotten by +30d") {
			t.Errorf("%v: the forgotten summary line never came on screen", msg)
		}
		if !seenWith(seen, lastLine) {
			t.Errorf("%v: the split's last line %q never came on screen:\n%s", msg, lastLine, screen(m))
		}
		if hasDesc(listedBindings(m), "scroll split down") || !hasDesc(listedBindings(m), "scroll split up") {
			t.Errorf("%v: at the end the footer should offer K and not J", msg)
		}
		for _, back := range []tea.Msg{press("K"), press("pgup"), tea.MouseWheelMsg{X: 60, Y: 10, Button: tea.MouseWheelUp}} {
			if b := drive(t, fork(m), back); strings.Contains(screen(b), "· end ·") {
				t.Errorf("%v did not scroll back from the end:\n%s", back, screen(b))
			}
		}
	}
}

// TestCapturesTrailScrollsToStore at 80×24: the first demo capture's trail
// (l1 … dedupe, store, supersede) is longer than its rows; J and the wheel
// over the trail bring its store layer on screen.
func TestCapturesTrailScrollsToStore(t *testing.T) {
	eng, db := openDemo(t)
	m := goTo(t, startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 80, 24), "Captures")
	cp := m.captures()
	c, ok := cp.list.selected()
	if !ok || !slices.ContainsFunc(c.Trail, func(d engine.Decision) bool { return d.Layer == "store" }) || c.Trail[0].Layer == "store" {
		t.Fatalf("the demo's first capture has no trail with store after its first rows:\n%s", screen(m))
	}
	storeRow := func(seen map[string]bool) bool {
		for l := range seen {
			if strings.HasPrefix(l, "store ") {
				return true
			}
		}
		return false
	}
	first := map[string]bool{}
	for _, l := range strings.Split(screen(m), "\n") {
		first[strings.TrimSpace(l)] = true
	}
	if storeRow(first) {
		t.Skip("the trail fits at 80×24: nothing to scroll")
	}
	if !hasDesc(listedBindings(m), "scroll trail down") {
		t.Errorf("the overflowing trail does not list J")
	}
	trailY := 2 + m.captures().listRows() + 1 // pane rows; the root adds the tab bar
	for _, msg := range []tea.Msg{press("J"), tea.MouseWheelMsg{X: 10, Y: trailY + 1, Button: tea.MouseWheelDown}} {
		end, seen := scrollToEnd(t, fork(m), msg)
		if !storeRow(seen) {
			t.Errorf("%v: the trail's store layer never came on screen:\n%s", msg, screen(end))
		}
		if got := end.captures().list.cursor; got != 0 {
			t.Errorf("%v moved the list cursor to %d instead of scrolling the trail", msg, got)
		}
	}
}

func (m Model) trace() tracePane {
	for _, p := range m.panes {
		if tp, ok := p.(tracePane); ok {
			return tp
		}
	}
	panic("no trace pane")
}

func stripped(s string) string { return ansi.Strip(s) }
