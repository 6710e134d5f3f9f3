package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/tiers"
)

// wheelDown and wheelUp are a notch of the mouse wheel at root row y.
func wheelDown(y int) tea.Msg { return tea.MouseWheelMsg{X: 40, Y: y, Button: tea.MouseWheelDown} }
func wheelUp(y int) tea.Msg   { return tea.MouseWheelMsg{X: 40, Y: y, Button: tea.MouseWheelUp} }

// heartbeatModel is the demo after one heartbeat at w×h.
func heartbeatModel(t *testing.T, w, h int) Model {
	t.Helper()
	eng, db := openDemo(t)
	if _, err := tiers.Heartbeat(context.Background(), eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	return startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, w, h)
}

// TestWheelScrollsMemoriesDetail at 80×24: the wheel over an open detail
// that overflows scrolls it to its last line, with the position line, and
// back, and so do pgdn and pgup; the list's cursor stays where it was.
func TestWheelScrollsMemoriesDetail(t *testing.T) {
	ms := newMemories(8)
	ms[0].Content = strings.Repeat("I walk the dog along the Han river every single morning before work. ", 8) +
		strings.Repeat("매일 아침 출근 전에 한강을 따라 개를 산책시켜요. ", 6) + "FINAL-WORD 마지막"
	m, _ := openMemories(t, ms, 80, 24)
	m = drive(t, m, press("enter"))
	if !strings.Contains(screen(m), "J more") {
		t.Fatalf("the long memory's detail fits at 80×24: the test needs one that overflows:\n%s", screen(m))
	}
	y := 4 + m.memories().list.visible + 2 // a row of the detail, in root rows
	end, seen := scrollToEnd(t, fork(m), wheelDown(y))
	if !seenWith(seen, "FINAL-WORD 마지막") {
		t.Errorf("the wheel never brought the content's end on screen:\n%s", screen(end))
	}
	if got := end.memories().list.cursor; got != 0 {
		t.Errorf("the wheel over the detail moved the list cursor to %d", got)
	}
	if b := drive(t, fork(end), wheelUp(y)); strings.Contains(screen(b), "· end ·") {
		t.Errorf("the wheel up did not scroll the detail back:\n%s", screen(b))
	}
	// pgdn pages the overflowing detail (the list keeps its cursor) and
	// the footer says so; pgup goes back.
	if !hasDesc(listedBindings(m), "detail page down") || hasDesc(listedBindings(m), "page down") {
		t.Errorf("the footer should offer pgdn for the detail, not for the list")
	}
	end, seen = scrollToEnd(t, fork(m), press("pgdown"))
	if !seenWith(seen, "FINAL-WORD 마지막") || end.memories().list.cursor != 0 {
		t.Errorf("pgdn did not page the detail to its end (cursor %d):\n%s", end.memories().list.cursor, screen(end))
	}
	if b := drive(t, fork(end), press("pgup")); strings.Contains(screen(b), "· end ·") {
		t.Errorf("pgup did not page the detail back:\n%s", screen(b))
	}
}

// TestWheelScrollsCurateDetail at 80×24 on the demo: the wheel over the
// selected proposal's detail scrolls the detail, not the queue.
func TestWheelScrollsCurateDetail(t *testing.T) {
	m := goTo(t, heartbeatModel(t, 80, 24), "Curate")
	// The first proposal, queue by queue, whose detail overflows.
	for i := 0; i < 40 && !overflows(len(m.curate().queues.detail()), curateDetailLines); i++ {
		q := m.curate().queues
		if q.list.cursor < len(q.list.rows)-1 {
			m = drive(t, m, press("down"))
		} else {
			m = drive(t, m, press("right"))
		}
	}
	q := m.curate().queues
	if !overflows(len(q.detail()), curateDetailLines) {
		t.Fatalf("no demo proposal's detail overflows at 80×24 (%d lines): the test needs one", len(q.detail()))
	}
	cursor := q.list.cursor
	y := m.height - 3 // the detail's last rows sit above the status line and the footer
	end, _ := scrollToEnd(t, fork(m), wheelDown(y))
	if got := end.curate().queues.list.cursor; got != cursor {
		t.Errorf("the wheel over the detail moved the queue's cursor to %d", got)
	}
	last := strings.TrimSpace(stripped(q.detail()[len(q.detail())-1]))
	if !strings.Contains(stripped(screen(end)), last) {
		t.Errorf("the detail's last line %q is not on screen at the end:\n%s", last, screen(end))
	}
	// Over the rows the wheel still moves the queue.
	if rows := drive(t, fork(m), wheelDown(4)); strings.Contains(screen(rows), "lines 2–") {
		t.Errorf("the wheel over the queue scrolled the detail:\n%s", screen(rows))
	}
}

// TestWheelScrollsTraceItemAndPrompt at 80×24: a long memory's open
// item and the final prompt that holds it scroll with the wheel (and j,
// pgdn) to their last line, with a position line naming the keys that
// move them; the wheel up goes back.
func TestWheelScrollsTraceItemAndPrompt(t *testing.T) {
	clock := func() time.Time { return demoNow }
	db := storetest.MustOpenClock(t, clock)
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The garden app syncs the watering plan to every phone in the house each night. ", 10) +
		strings.Repeat("정원 앱은 매일 밤 집 안의 모든 휴대폰에 물 주기 계획을 맞춰요. ", 8) + "LAST-WORD 끝"
	if err := eng.AddMemory(ctx, &engine.Memory{Content: long, Kind: engine.KindFact, Type: "note", Importance: 0.6, CreatedAt: demoNow.AddDate(0, 0, -3)}, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	m := startModel(t, Deps{Engine: eng, Store: db, Now: clock, NoColor: true}, 80, 24)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "garden watering")
	for _, k := range []string{"enter", "right", "enter"} {
		m = drive(t, m, press(k))
	}
	tp := m.trace()
	if !tp.itemOpen {
		t.Fatalf("no open item:\n%s", screen(m))
	}
	body := tp.openItemBody()
	if !overflows(len(body), tp.bodyRows()-1) {
		t.Fatalf("the open item fits (%d lines in %d rows): the test needs one that overflows", len(body), tp.bodyRows()-1)
	}
	if !strings.Contains(screen(m), "↓/j more") {
		t.Errorf("the open item's position line should name ↓/j:\n%s", screen(m))
	}
	last := strings.TrimSpace(stripped(body[len(body)-1]))
	for _, msg := range []tea.Msg{wheelDown(10), press("j"), press("pgdown")} {
		end, seen := scrollToEnd(t, fork(m), msg)
		if !seenWith(seen, last) {
			t.Errorf("%v: the item's last line %q never came on screen:\n%s", msg, last, screen(end))
		}
		if b := drive(t, fork(end), wheelUp(10)); strings.Contains(screen(b), "· end ·") {
			t.Errorf("%v: the wheel up did not scroll the item back", msg)
		}
	}

	// The prompt (p, with the items focused) holds the whole memory.
	pm := drive(t, m, press("esc"))
	pm = drive(t, pm, press("p"))
	tp = pm.trace()
	lines := tp.promptLines()
	if !tp.prompt || !overflows(len(lines), tp.bodyRows()-1) {
		t.Fatalf("the prompt fits (%d lines in %d rows): the test needs one that overflows:\n%s", len(lines), tp.bodyRows()-1, screen(pm))
	}
	for _, msg := range []tea.Msg{wheelDown(10), press("j")} {
		end, seen := scrollToEnd(t, fork(pm), msg)
		if !seenWith(seen, "LAST-WORD 끝") {
			t.Errorf("%v: the prompt's end never came on screen:\n%s", msg, screen(end))
		}
		if b := drive(t, fork(end), wheelUp(10)); strings.Contains(screen(b), "· end ·") {
			t.Errorf("%v: the wheel up did not scroll the prompt back", msg)
		}
	}
}

// TestWheelScrollsHelpOverlay at 80×24: over the ? overlay the wheel
// scrolls the keys (not the pane under it) to the last one, the palette's
// last command.
func TestWheelScrollsHelpOverlay(t *testing.T) {
	m := goTo(t, heartbeatModel(t, 80, 24), "Memories")
	m = drive(t, m, press("?"))
	cursor := m.memories().list.cursor
	end, seen := scrollToEnd(t, fork(m), wheelDown(10))
	cmds := paletteCommands()
	lastCmd := ":" + cmds[len(cmds)-1].Name
	if !seenWith(seen, lastCmd) {
		t.Errorf("the wheel never brought the last key %q on screen:\n%s", lastCmd, screen(end))
	}
	if !seenWith(seen, "quit") {
		t.Errorf("the global keys (q quit) are not in the overlay")
	}
	if end.memories().list.cursor != cursor {
		t.Errorf("the wheel over the overlay moved the list under it")
	}
	if b := drive(t, fork(end), wheelUp(10)); strings.Contains(screen(b), "· end ·") {
		t.Errorf("the wheel up did not scroll the overlay back")
	}
}

// TestCurateHeldDetailScrolls at 80×24: a held capture's text is shown
// whole — no longer cut at three lines — and its detail scrolls with J
// and the wheel below the rows to its last line, the held reason; J/K are
// listed while it overflows; the list's cursor stays.
func TestCurateHeldDetailScrolls(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return testNow }
	db := storetest.MustOpenClock(t, now)
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: now, Judge: holdingJudge{}})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("We moved the staging database to the new cluster on Tuesday and kept the old one read-only. ", 5) +
		strings.Repeat("스테이징 데이터베이스를 화요일에 새 클러스터로 옮겼어요. ", 4) + "LAST-HELD 끝"
	if _, err := capture.CaptureBatch(ctx, e, []engine.Message{
		{ID: "h1", Session: "s", Role: "user", Text: long, At: testNow.Add(-2 * time.Hour)},
		{ID: "h2", Session: "s", Role: "user", Text: "I think the weather was fine yesterday, nothing special happened.", At: testNow.Add(-time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	m := goTo(t, startModel(t, Deps{Engine: e, Store: db, Now: now, NoColor: true}, 80, 24), "Curate")
	m = drive(t, m, press("v"))
	if !strings.Contains(screen(m), "LAST-HELD") && !strings.Contains(screen(m), "J more") {
		t.Fatalf("the long held capture neither fits nor scrolls:\n%s", screen(m))
	}
	if !hasDesc(listedBindings(m), "scroll detail down") {
		t.Fatalf("the overflowing held detail does not list J:\n%s", screen(m))
	}
	cursor := m.curate().held.list.cursor
	for _, msg := range []tea.Msg{press("J"), wheelDown(m.height - 3)} {
		end, seen := scrollToEnd(t, fork(m), msg)
		if !seenWith(seen, "LAST-HELD 끝") || !seenWith(seen, `why held: "type" is not one of the labels`) {
			t.Errorf("%v: the held text's end or its reason never came on screen:\n%s", msg, screen(end))
		}
		if end.curate().held.list.cursor != cursor {
			t.Errorf("%v moved the held list's cursor", msg)
		}
	}
}

// TestGoldenDetailScrolls at 80×24 on the demo's set after a run: a
// probe's detail taller than its room scrolls below its heading with J
// and with the wheel over it to its last line, with the shared position
// line; J/K are listed only while they move; the wheel over the rows
// still moves the rows.
func TestGoldenDetailScrolls(t *testing.T) {
	eng, db := openDemo(t)
	g := drive(t, goTo(t, renderModel(t, eng, db, 80, 24), "Golden"), press("r"))
	t.Cleanup(func() { g.Close() })
	gp := func(m Model) goldenPane {
		p, _ := m.activePane()
		return p.(goldenPane)
	}
	over := func(m Model) bool {
		p := gp(m)
		r, ok := p.probes.selected()
		return ok && overflows(len(p.detailBody(r)), p.detailRows()-1)
	}
	for i := 0; i < 40 && !over(g); i++ {
		g = drive(t, g, press("j"))
	}
	if !over(g) {
		t.Fatalf("no probe's detail overflows at 80×24:\n%s", screen(g))
	}
	p := gp(g)
	r, _ := p.probes.selected()
	body := p.detailBody(r)
	last := strings.TrimSpace(stripped(body[len(body)-1]))
	if !hasDesc(listedBindings(g), "detail down") || hasDesc(listedBindings(g), "detail up") {
		t.Errorf("at the top the footer should offer J, not K")
	}
	detailY := 1 + goldenHeaderLines + p.probes.listRows() + 2 // root rows
	for _, msg := range []tea.Msg{press("J"), wheelDown(detailY)} {
		end, seen := scrollToEnd(t, fork(g), msg)
		if !seenWith(seen, last) {
			t.Errorf("%v: the detail's last line %q never came on screen:\n%s", msg, last, screen(end))
		}
		if gp(end).probes.cursor != p.probes.cursor {
			t.Errorf("%v moved the probe cursor", msg)
		}
		if hasDesc(listedBindings(end), "detail down") || !hasDesc(listedBindings(end), "detail up") {
			t.Errorf("%v: at the end the footer should offer K, not J", msg)
		}
	}
	if rows := drive(t, fork(g), wheelDown(1+goldenHeaderLines)); gp(rows).probes.cursor == p.probes.cursor {
		t.Errorf("the wheel over the rows did not move them")
	}
}

// TestCapturesAuditScrolls at 80×24 on the demo: the store audit (A) is
// taller than the pane; ↓/j, pgdn and the wheel bring its last line on
// screen with the shared position line; the wheel up goes back.
func TestCapturesAuditScrolls(t *testing.T) {
	m := drive(t, goTo(t, heartbeatModel(t, 80, 24), "Captures"), press("A"))
	cp := m.captures()
	lines := cp.auditLines(cp.width)
	if !cp.auditOpen || !overflows(len(lines), cp.height-1) {
		t.Fatalf("the demo's audit fits at 80×24 (%d lines): the test needs one that overflows:\n%s", len(lines), screen(m))
	}
	if !strings.Contains(screen(m), "↓/j more") {
		t.Errorf("no position line naming ↓/j:\n%s", screen(m))
	}
	last := strings.TrimSpace(stripped(lines[len(lines)-1]))
	for _, msg := range []tea.Msg{press("j"), press("pgdown"), wheelDown(10)} {
		end, seen := scrollToEnd(t, fork(m), msg)
		if !seenWith(seen, last) {
			t.Errorf("%v: the audit's last line %q never came on screen:\n%s", msg, last, screen(end))
		}
		if b := drive(t, fork(end), wheelUp(10)); strings.Contains(screen(b), "· end ·") {
			t.Errorf("%v: the wheel up did not scroll the audit back", msg)
		}
	}
}
