package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	// Our own package golden is the probe runner; this is charm's
	// golden-file helper (bubbles' table tests use it). It registers the
	// -update flag, so this test binary must not register another.
	charmgolden "github.com/charmbracelet/x/exp/golden"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/tiers"
)

// TestRenderGolden renders every tab on the demo database at its pinned
// clock — the morning after the conversation, after one heartbeat, as
// `memtrace demo` builds it — at 80×24 and 120×40, and compares the screen
// without colour (ansi.Strip) with testdata/TestRenderGolden/*.golden.
// After a deliberate change of a layout, regenerate and review the diff:
//
//	go test ./ui -run TestRenderGolden -update
//
// The screens hold no wall-clock time, no timings and no spinner frame
// (drive drops the spinner's ticks, and every task has finished when a
// screen is taken), so they are the same on every run.
func TestRenderGolden(t *testing.T) {
	eng, db := openDemo(t)
	if _, err := tiers.Heartbeat(context.Background(), eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := renderModel(t, eng, db, w, h)
			shot := func(name string, m Model) { goldenShot(t, name, m, w, h) }
			m = drive(t, m, press("/"))
			m = typeText(t, m, "충주 사과")
			m = drive(t, m, press("enter"))
			shot("trace", m)
			// → focuses the items: below 110 columns the stage list folds
			// away so that the item text has the width.
			items := drive(t, m, press("right"))
			shot("trace_items", items)
			// enter: the item whole, with its forecast.
			shot("trace_item", drive(t, fork(items), press("enter")))
			m = drive(t, m, press("]"), press("]"), press("]"), press("s"))
			shot("trace_split", m)
			// Scrolled to their last line: the split view, the ? overlay
			// (and filtered), each with its position line.
			shot("trace_split_end", toEnd(t, fork(m), "J"))
			shot("trace_help_end", toEnd(t, drive(t, fork(m), press("?")), "pgdown"))
			shot("trace_help_filter", drive(t, typeText(t, drive(t, fork(m), press("?"), press("/")), "quit"), press("enter")))

			// p: the final prompt; ?: every key of the tab.
			shot("trace_prompt", drive(t, fork(m), press("p")))
			shot("trace_help", drive(t, fork(m), press("?")))

			shot("golden", goTo(t, m, "Golden"))
			cur := goTo(t, m, "Curate")
			shot("curate", cur)
			// The Curate tab's other screens: the reject dialog, the batch
			// history and a batch's changes, the supersession links.
			shot("curate_reject", drive(t, fork(cur), press("x")))
			hist := drive(t, fork(cur), press("H"))
			shot("curate_history", hist)
			shot("curate_batch", drive(t, fork(hist), press("enter")))
			shot("curate_superseded", drive(t, fork(cur), press("S")))
			// A lesson's detail (the promote queue) scrolled to its end.
			prom := fork(cur)
			for i := 0; i < 8 && !strings.Contains(screen(prom), "promote →"); i++ {
				prom = drive(t, prom, press("right"))
			}
			shot("curate_promote_end", toEnd(t, prom, "J"))
			mem := goTo(t, m, "Memories")
			shot("memories", mem)
			shot("memories_detail", drive(t, mem, press("enter")))
			shot("memories_detail_end", toEnd(t, drive(t, fork(mem), press("enter")), "J"))
			// The demo's phone: the iPhone superseded the Galaxy.
			shot("memories_chain", drive(t, fork(mem), OpenMemoryMsg{Key: "m0480"}))
			capt := goTo(t, m, "Captures")
			shot("captures", capt)
			shot("captures_patterns", drive(t, fork(capt), press("f")))
			shot("captures_trail_end", toEnd(t, fork(capt), "J"))

			// Golden: r runs the set on its fixture; enter on a probe
			// opens the trace of its own run, labelled; M marks its
			// survivors for a new probe.
			g := drive(t, goTo(t, m, "Golden"), press("r"))
			t.Cleanup(func() { g.Close() })
			g = drive(t, g, press("j"), press("j"), press("j"), press("j"), press("j"), press("j"), press("enter"))
			shot("trace_probe", g)
			shot("trace_mark", drive(t, g, press("M"), press("y"), press("j"), press("x")))
		})
	}
}

// toEnd presses k until the screen's position line says "end" (at once
// when what it scrolls fits: no position line).
func toEnd(t *testing.T, m Model, k string) Model {
	t.Helper()
	for i := 0; i < 80; i++ {
		s := screen(m)
		if strings.Contains(s, "· end ·") || !strings.Contains(s, " more · ") {
			return m
		}
		m = drive(t, m, press(k))
	}
	t.Fatalf("%s never reached the end:\n%s", k, screen(m))
	return m
}

// fork is m with panes of its own: a Model copy shares its panes slice,
// so a screen taken on a branch of the path would change the path.
func fork(m Model) Model {
	m.panes = append([]pane(nil), m.panes...)
	return m
}

// renderModel is the UI on the demo database, sized, with its first loads
// done. The Golden tab opens the project's set, as it does when memtrace
// runs from the repository root.
func renderModel(t *testing.T, eng *engine.Engine, db *store.DB, w, h int) Model {
	t.Helper()
	deps := Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true, OpenStore: goldenOpenStore}
	m := newModel(context.Background(), deps)
	for i, p := range m.panes {
		if g, ok := p.(goldenPane); ok {
			g.defaultSet = demoSet
			m.panes[i] = g
		}
	}
	m = drive(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return drive(t, m, startMsg{})
}

// goldenShot compares the screen of m with the golden file name, in a
// subtest: the screen is exactly h lines, the active pane's lines fit w
// cells (the root cuts what is too wide; the pane itself must fit).
func goldenShot(t *testing.T, name string, m Model, w, h int) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		s := screen(m)
		if got := strings.Count(s, "\n") + 1; got != h {
			t.Errorf("%d lines on a %d-line terminal", got, h)
		}
		p, _ := m.activePane()
		for i, line := range strings.Split(p.View(), "\n") {
			if lw := lipgloss.Width(line); lw > w {
				t.Errorf("%s pane line %d is %d cells wide on a %d-cell terminal: %q", p.Title(), i, lw, w, ansi.Strip(line))
			}
		}
		charmgolden.RequireEqual(t, s)
	})
}
