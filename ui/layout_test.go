package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"memtrace/internal/safetext"
)

// TestTooSmallFrame: below 80×24 the frame says how large the terminal is
// and what it needs, on every tab, and fits the terminal; at 80×24 the tabs
// are back.
func TestTooSmallFrame(t *testing.T) {
	m := newTestModel(t, openStore(t, newMemories(5), seedCaptures()), 100, 30)
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 10}} {
		m = drive(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s := screen(m)
		want := "need 80×24"
		if v := strings.Join(strings.Fields(s), " "); !strings.Contains(v, "terminal too small:") || !strings.Contains(v, want) {
			t.Errorf("%dx%d: no too-small notice:\n%s", size[0], size[1], s)
		}
		if strings.Contains(s, "1 Trace") {
			t.Errorf("%dx%d: the tabs are drawn on a too-small terminal:\n%s", size[0], size[1], s)
		}
		lines := strings.Split(s, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := safetext.Width(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d cells", size[0], size[1], i, w)
			}
		}
	}
	m = drive(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := screen(m); strings.Contains(s, "terminal too small") || !strings.Contains(s, "1 Trace") {
		t.Errorf("80×24 still shows the notice:\n%s", s)
	}
}

// TestNarrowLayouts: at 80×24 the Trace items (focused) give the text at
// least 40 cells, Captures rows take one line each with the pattern counts
// one f away, and the Memories detail shows the decay curve, the forecast
// and an audit row.
func TestNarrowLayouts(t *testing.T) {
	eng, db := openDemo(t)
	m := renderModel(t, eng, db, 80, 24)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "충주 사과")
	m = drive(t, m, press("enter"), press("right"))
	s := screen(m)
	if !strings.Contains(s, "← stages") {
		t.Errorf("the stage list did not fold away with the items focused:\n%s", s)
	}
	// The TEXT column starts after the mark, id, key and type; measure it
	// on the header line.
	var textCells int
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "TEXT"); i >= 0 && strings.Contains(l, "KEY") {
			textCells = 80 - safetext.Width(l[:i])
		}
	}
	if textCells < 40 {
		t.Errorf("item text gets %d cells at 80 columns, want ≥ 40:\n%s", textCells, s)
	}
	m = drive(t, m, press("left"))
	if s := screen(m); !regexp.MustCompile(`(?m)^10 budget\s+\d+\s+\d+`).MatchString(s) {
		t.Errorf("← did not bring the stage list back:\n%s", s)
	}

	c := goTo(t, m, "Captures")
	s = screen(c)
	rows := regexp.MustCompile(`(?m)^\s+(\d+) \d\d-\d\d \d\d:\d\d `).FindAllStringSubmatch(s, -1)
	if len(rows) < 5 {
		t.Fatalf("fewer than 5 capture rows at 80×24:\n%s", s)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i][1] == rows[i-1][1] {
			t.Errorf("capture %s takes two lines", rows[i][1])
		}
	}
	if !strings.Contains(s, "decision trail") && !strings.Contains(s, "VERDICT") {
		t.Errorf("no decision trail at 80×24:\n%s", s)
	}
	c = drive(t, c, press("f"))
	if s := screen(c); !strings.Contains(s, "dropped, per pattern") || !strings.Contains(s, "heartbeat_ok") {
		t.Errorf("f did not show the pattern counts at 80×24:\n%s", s)
	}

	mem := drive(t, goTo(t, m, "Memories"), press("enter"))
	s = screen(mem)
	// At 80 columns the forecast is in its short words, both dates kept.
	if _, ok := axisLine(s); !ok || !regexp.MustCompile(`decay (free recall until|out of free recall since) \d{4}-\d\d-\d\d.*, (recognisable until|unrecognisable since) \d{4}-\d\d-\d\d`).MatchString(s) {
		t.Errorf("no decay curve or forecast with both dates in the Memories detail at 80×24:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d capture +create`).MatchString(s) {
		t.Errorf("no audit row in the Memories detail at 80×24:\n%s", s)
	}
}

// TestTraceOpenItem: enter on an item shows it whole (full text, numbers
// grouped, the drop reason with its drop_kind), m shows the memory in
// Memories, the stage list counts drops by kind, and the footer offers
// what the mode does.
func TestTraceOpenItem(t *testing.T) {
	eng, db := openDemo(t)
	m := renderModel(t, eng, db, 80, 24)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "충주 사과")
	m = drive(t, m, press("enter"))
	// rerun drops 31: the stage list counts them by kind.
	m = drive(t, m, press("g"), press("down"), press("down"), press("down"))
	s := screen(m)
	if !strings.Contains(s, "dropped (drop_kind × count)") || !regexp.MustCompile(`\w+ × \d+`).MatchString(s) {
		t.Errorf("no drop_kind × count for the rerank stage:\n%s", s)
	}
	m = drive(t, m, press("right"))
	if !strings.Contains(lastLine(screen(m)), "enter open item") {
		t.Errorf("footer does not offer enter on an item: %q", lastLine(screen(m)))
	}
	// The last item of rerank is a dropped one.
	m = drive(t, m, press("G"), press("enter"))
	s = screen(m)
	p := m.panes[0].(tracePane)
	it := p.stageItems()[p.item]
	if !p.itemOpen || it.Dropped == "" {
		t.Fatalf("enter did not open a dropped item (open %v, dropped %q)", p.itemOpen, it.Dropped)
	}
	flat := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(flat, "✗ dropped ["+string(it.DropKind)+"]: "+strings.Join(strings.Fields(it.Dropped), " ")) {
		t.Errorf("the drop reason is not shown in full with its kind %q:\n%s", it.DropKind, s)
	}
	if !strings.Contains(flat, strings.Join(strings.Fields(safetext.Sanitize(it.Text)), " ")) {
		t.Errorf("the item text is not shown whole:\n%s", s)
	}
	for _, g := range []string{"scores"} {
		if !regexp.MustCompile(`(?m)^` + g + `\s*$`).MatchString(s) {
			t.Errorf("no %s group:\n%s", g, s)
		}
	}
	if f := lastLine(s); strings.Contains(f, "q quit") && strings.Contains(f, "enter open item") || !strings.Contains(f, "m show in Memories") {
		t.Errorf("footer of the open item: %q", f)
	}
	m = drive(t, m, press("m"))
	if mp, ok := m.activePane(); !ok || mp.ID() != paneMemories {
		t.Fatalf("m did not switch to Memories")
	}
	s = screen(m)
	if !strings.Contains(s, "key:"+it.Key) || !strings.Contains(s, "── memory "+fmt.Sprint(it.ID)) || !strings.Contains(s, "1 of 1") {
		t.Errorf("Memories does not show %s with its detail:\n%s", it.Key, s)
	}
}

// TestZeroSurvivorsOpensWhereTheyDied: a query nothing survives opens on
// the last stage that dropped items, not on an empty budget.
func TestZeroSurvivorsOpensWhereTheyDied(t *testing.T) {
	eng, db := openDemo(t)
	m := renderModel(t, eng, db, 120, 40)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "배가 아파")
	m = drive(t, m, press("enter"))
	p := m.panes[0].(tracePane)
	if p.trace == nil || len(p.trace.Survivors) != 0 {
		t.Skipf("the off-topic query has survivors in the demo; this test needs one without")
	}
	if want := lastDropStage(p.trace, -1); want < 0 || p.stage != want {
		t.Errorf("opened on stage %d, want %d (the last that dropped items)", p.stage, want)
	}
	if droppedCount(p.trace.Stages[p.stage]) == 0 {
		t.Errorf("stage %d dropped nothing", p.stage)
	}
}

// TestCurateListKeys: Curate's queues move with g/G/pgdn/end like every
// list (the demo's demote queue is long), and space selects.
func TestCurateListKeys(t *testing.T) {
	eng, db := openDemo(t)
	m := renderModel(t, eng, db, 80, 24)
	m = goTo(t, m, "Curate")
	var c curatePane
	get := func() curatePane { return m.panes[2].(curatePane) }
	// Find the longest queue.
	best, bestLen := 0, 0
	for range curateKinds() {
		c = get()
		if n := len(c.queue()); n > bestLen {
			best, bestLen = c.kindIdx, n
		}
		m = drive(t, m, press("right"))
	}
	for get().kindIdx != best {
		m = drive(t, m, press("right"))
	}
	if bestLen < 3 {
		t.Skipf("no Curate queue with 3 rows in the demo (longest %d)", bestLen)
	}
	m = drive(t, m, press("G"))
	if c = get(); c.cursor != bestLen-1 {
		t.Errorf("G: cursor %d, want %d", c.cursor, bestLen-1)
	}
	m = drive(t, m, press("g"))
	if c = get(); c.cursor != 0 {
		t.Errorf("g: cursor %d, want 0", c.cursor)
	}
	m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyPgDown})
	if c = get(); c.cursor != min(bestLen-1, c.listRows()) {
		t.Errorf("pgdn: cursor %d, want %d", c.cursor, min(bestLen-1, c.listRows()))
	}
	m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyEnd})
	if c = get(); c.cursor != bestLen-1 {
		t.Errorf("end: cursor %d", c.cursor)
	}
	m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyHome}, press(" "))
	if c = get(); len(c.selected) != 1 || c.cursor != 1 {
		t.Errorf("space: %d selected, cursor %d; want 1 selected and the cursor on row 2", len(c.selected), c.cursor)
	}
	m = drive(t, m, press("?"))
	if s := screen(m); !strings.Contains(s, "select & move down") {
		t.Errorf("? does not document space:\n%s", s)
	}
}
