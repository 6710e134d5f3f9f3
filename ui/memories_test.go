package ui

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// openMemories opens the UI on a store holding ms, on the Memories tab.
func openMemories(t testing.TB, ms []*engine.Memory, w, h int) (Model, *recordingStore) {
	t.Helper()
	s := openStore(t, ms, nil)
	return goTo(t, newTestModel(t, s, w, h), "Memories"), s
}

// typeBurst types s the way a fast typist does: every keystroke reaches
// Update and gets its frame, and no command has run yet (the debounce
// ticks are still waiting). It returns the command of the last keystroke.
func typeBurst(t *testing.T, m Model, s string) (Model, tea.Cmd) {
	t.Helper()
	var last tea.Cmd
	typed := ""
	for _, r := range s {
		next, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		m, last, typed = next.(Model), cmd, typed+string(r)
		if v := m.memories().input.Value(); !strings.HasSuffix(v, typed) || !strings.Contains(screen(m), "/ "+v) {
			t.Fatalf("the frame after typing %q does not show the filter %q:\n%s", typed, v, screen(m))
		}
	}
	return m, last
}

// TestMemoriesFilterTyping: typing in the filter is debounced. A burst of
// keystrokes updates the filter bar at once and queries nothing; a tick of
// an earlier keystroke is stale and ignored; the tick of the last one runs
// exactly one query; enter runs the query at once.
func TestMemoriesFilterTyping(t *testing.T) {
	ms := newMemories(30)
	ms[4].Status = engine.StatusQuarantined
	ms[4].Content = "녹차를 좋아함"
	ms[9].Content = "녹차 말고 커피"
	m, s := openMemories(t, ms, 100, 30)

	m = drive(t, m, press("/"))
	if !m.memories().Typing() {
		t.Fatal("/ did not focus the filter")
	}
	queries := func() int { _, f := s.last(); return len(f) }
	before := queries()
	m, last := typeBurst(t, m, "status:quarantined 녹차")
	// q typed into the filter is text, not quit.
	p := m.memories()
	if n := queries(); n != before || p.list.total != 30 || p.filter.Text != "" {
		t.Fatalf("the burst queried the store %d time(s) (total %d, filter %+v), want none yet", n-before, p.list.total, p.filter)
	}
	if p.filterSeq != len([]rune("status:quarantined 녹차")) {
		t.Fatalf("filterSeq = %d after %d keystrokes", p.filterSeq, len([]rune("status:quarantined 녹차")))
	}

	// The tick of an earlier keystroke arrives: stale, nothing happens.
	m = drive(t, m, send(paneMemories, filterTickMsg{Seq: p.filterSeq - 1}))
	if n := queries(); n != before || m.memories().list.total != 30 {
		t.Fatalf("a stale tick ran %d queries", n-before)
	}

	// The last keystroke's own tick (its real command, as the program runs
	// it) runs one query.
	m = drive(t, m, runCmd(t, last)...)
	p = m.memories()
	if n := queries(); n != before+1 {
		t.Fatalf("the last tick ran %d queries, want 1", n-before)
	}
	if p.filter.Status == nil || *p.filter.Status != engine.StatusQuarantined || p.filter.Text != "녹차" {
		t.Fatalf("filter = %+v", p.filter)
	}
	if p.list.total != 1 {
		t.Fatalf("total = %d, want 1", p.list.total)
	}
	sel, _ := p.list.selected()
	if sel.ID != 5 {
		t.Errorf("selected #%d, want #5", sel.ID)
	}
	view := screen(m)
	if !strings.Contains(view, "녹차를 좋아함") || strings.Contains(view, "커피") {
		t.Errorf("filtered view:\n%s", view)
	}
	// The same tick again (say, delivered twice) changes nothing.
	m = drive(t, m, send(paneMemories, filterTickMsg{Seq: p.filterSeq}))
	if n := queries(); n != before+1 {
		t.Fatalf("a repeated tick ran another query")
	}

	// Backspace the status away and press enter before any tick: the query
	// runs at once, and the burst's tick is stale when it comes.
	next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	m = next.(Model)
	for range len([]rune("status:quarantined 녹차")) {
		next, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
		m = next.(Model)
	}
	m, _ = typeBurst(t, m, "커피")
	burstSeq := m.memories().filterSeq
	m = drive(t, m, press("enter"))
	if m.memories().Typing() {
		t.Error("enter left the filter focused")
	}
	if n := queries(); n != before+2 || m.memories().list.total != 1 || m.memories().filter.Text != "커피" {
		t.Fatalf("enter ran %d queries, total %d, filter %+v", n-before-1, m.memories().list.total, m.memories().filter)
	}
	m = drive(t, m, send(paneMemories, filterTickMsg{Seq: burstSeq}))
	if n := queries(); n != before+2 {
		t.Fatal("the burst's tick ran a query after enter had")
	}
	if !strings.Contains(screen(m), "/ 커피") || !strings.Contains(screen(m), "녹차 말고 커피") {
		t.Errorf("the filter text or its row disappeared after enter:\n%s", screen(m))
	}
}

func TestMemoryQuery(t *testing.T) {
	f, problem := memoryQueryCheck("type:health kind:Episode tier:hot foo 10:30 bar:")
	if *f.Type != "health" || *f.Kind != engine.KindEpisode || *f.Tier != engine.TierHot || f.Status != nil || f.Text != "foo 10:30" {
		t.Errorf("memoryQuery = %+v", f)
	}
	if want := "unknown field bar: use status, type, kind, tier, key"; problem != want {
		t.Errorf("problem %q, want %q", problem, want)
	}
	for in, want := range map[string]string{
		"stat: 땅콩":           "unknown field stat: use status, type, kind, tier",
		"status:quarantine":  "unknown status quarantine: use active, quarantined, archived, superseded",
		"tier:lukewarm":      "unknown tier lukewarm: use hot, warm, cold",
		"kind:memo":          "unknown kind memo: use fact, episode",
		"status:quarantined": "",
	} {
		f, problem := memoryQueryCheck(in)
		if !strings.HasPrefix(problem, want) || (want == "") != (problem == "") {
			t.Errorf("%q: problem %q, want %q", in, problem, want)
		}
		if want != "" && (f.Status != nil || f.Tier != nil || f.Kind != nil) {
			t.Errorf("%q: an unknown value still filters: %+v", in, f)
		}
	}
}

// TestFilterProblemAndEscClear: an unknown field is named on the status
// line instead of silently matching nothing, and esc clears the filter
// (in the input and after it).
func TestFilterProblemAndEscClear(t *testing.T) {
	m := newTestModel(t, openStore(t, newMemories(5), nil), 100, 30)
	m = goTo(t, m, "Memories")
	m = drive(t, m, press("/"))
	m = typeText(t, m, "stat:active")
	m = drive(t, m, press("enter"))
	if s := screen(m); !strings.Contains(s, "unknown field stat: use status, type, kind, tier") {
		t.Errorf("no inline report of the unknown field:\n%s", s)
	}
	if !strings.Contains(lastLine(screen(m)), "esc clear filter") {
		t.Errorf("footer does not offer esc to clear the filter: %q", lastLine(screen(m)))
	}
	m = drive(t, m, press("esc"))
	if p := m.memories(); p.input.Value() != "" || p.filterProblem != "" || !strings.Contains(screen(m), "1 of 5") {
		t.Errorf("esc did not clear the filter: %q %q\n%s", p.input.Value(), p.filterProblem, screen(m))
	}
	m = drive(t, m, press("/"))
	m = typeText(t, m, "number 3")
	m = drive(t, m, press("esc"))
	if p := m.memories(); p.input.Value() != "" || p.input.Focused() || !strings.Contains(screen(m), "1 of 5") {
		t.Errorf("esc in the input did not clear the filter:\n%s", screen(m))
	}
}

// TestReadmeFilterExample: the README's Memories filter example parses
// without a problem and matches at least one memory of the demo.
func TestReadmeFilterExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ex := regexp.MustCompile("filterable list \\(`/ ([^`]+)`").FindSubmatch(readme)
	if ex == nil {
		t.Fatal("no filter example (`/ …`) after \"filterable list\" in README.md")
	}
	f, problem := memoryQueryCheck(string(ex[1]))
	if problem != "" {
		t.Fatalf("README filter %q: %s", ex[1], problem)
	}
	_, db := openDemo(t)
	rows, total, err := db.FindMemories(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 || len(rows) == 0 {
		t.Errorf("README filter %q matches no demo memory", ex[1])
	}
}

func TestMemoriesPaging(t *testing.T) {
	m, s := openMemories(t, newMemories(5000), 100, 30)
	p := m.memories()
	if p.list.total != 5000 {
		t.Fatalf("total = %d", p.list.total)
	}
	_, fetched := s.last()
	for _, n := range fetched {
		if n > p.list.windowSize() {
			t.Fatalf("fetched %d rows at once, window is %d", n, p.list.windowSize())
		}
	}
	for range 40 {
		m = drive(t, m, press("pgdown"))
	}
	p = m.memories()
	want := 1 + 40*p.list.visible
	sel, ok := p.list.selected()
	if !ok || sel.ID != int64(want) {
		t.Fatalf("after 40 pages: selected %v, want #%d", sel, want)
	}
	if last, _ := s.last(); last.Offset == 0 {
		t.Error("paging never asked for a later offset")
	}
	if !strings.Contains(screen(m), fmt.Sprintf("memory number %d likes", want)) {
		t.Error("the selected row is not on screen")
	}
	m = drive(t, m, press("G"))
	mp := m.memories()
	if sel, _ := mp.list.selected(); sel == nil || sel.ID != 5000 {
		t.Errorf("G selected %v, want #5000", sel)
	}
	if !strings.Contains(screen(m), "5000 of 5000") {
		t.Errorf("status line: %q", lastLine(strings.TrimSuffix(screen(m), "\n")))
	}
	// The wheel scrolls three rows.
	m = drive(t, m, tea.MouseWheelMsg{Y: 5, Button: tea.MouseWheelUp})
	if top := m.memories().list.top; top != 5000-m.memories().list.visible-3 {
		t.Errorf("after wheel up top = %d", top)
	}
}

func TestQuarantineRestoreImportanceUndo(t *testing.T) {
	m, s := openMemories(t, newMemories(3), 100, 30)
	m = drive(t, m, press("down")) // #2
	m = drive(t, m, press("x"))
	got := memory(t, s, 2)
	if got.Status != engine.StatusQuarantined || got.OrigType != "preference" || got.Type != "preference" {
		t.Fatalf("after x: %+v", got)
	}
	audit := changes(t, s)
	if len(audit) != 1 || audit[0].Actor != "curator" || audit[0].Action != "quarantine" || audit[0].MemoryID != 2 {
		t.Fatalf("audit after x: %+v", audit)
	}
	firstBatch := audit[0].Batch
	if !strings.Contains(screen(m), "quarantined") {
		t.Error("the list still shows the old status")
	}

	m = drive(t, m, press("u"))
	if got := memory(t, s, 2); got.Status != engine.StatusActive || got.OrigType != "" {
		t.Fatalf("undo of x left %+v\n%s", got, screen(m))
	}
	audit = changes(t, s)
	last := audit[len(audit)-1]
	if len(audit) != 2 || last.Batch != "rollback:"+firstBatch || last.Actor != "curator" || last.MemoryID != 2 {
		t.Errorf("rollback audit rows = %+v", audit)
	}

	m = drive(t, m, press("+"))
	if got := memory(t, s, 2); got.Importance != 0.6 {
		t.Fatalf("importance after + = %v", got.Importance)
	}
	if audit := changes(t, s); len(audit) != 3 || audit[2].Batch == firstBatch || audit[2].Action != "importance" {
		t.Errorf("the importance change is not a batch of its own: %+v", audit)
	}
	m = drive(t, m, press("u"))
	if got := memory(t, s, 2); got.Importance != 0.5 || got.Status != engine.StatusActive {
		t.Fatalf("undo of + left %+v", got)
	}

	m = drive(t, m, press("u"))
	if !strings.Contains(screen(m), "nothing to undo") {
		t.Error("a third u did not say there is nothing to undo")
	}

	// Restore undoes a quarantine made elsewhere; the detail lists the audit.
	setMemory(t, s, 3, func(m *engine.Memory) { m.Status = engine.StatusQuarantined })
	m = drive(t, m, press("R"), press("down"), press("r"))
	if got := memory(t, s, 3); got.Status != engine.StatusActive {
		t.Fatalf("r left %s", got.Status)
	}
	m = drive(t, m, press("enter"))
	view := screen(m)
	for _, want := range []string{"audit history", "restore", "status quarantined→active", "orig_type", "importance"} {
		if !strings.Contains(view, want) {
			t.Errorf("detail lacks %q:\n%s", want, view)
		}
	}
	// Importance stays within 0..1 and a no-op writes nothing.
	setMemory(t, s, 3, func(m *engine.Memory) { m.Importance = 1 })
	before := len(changes(t, s))
	m = drive(t, m, press("R"), press("+"))
	if n := len(changes(t, s)); n != before || !strings.Contains(screen(m), "nothing to change") {
		t.Errorf("+ at importance 1 wrote %d audit rows", n-before)
	}
	if got := memory(t, s, 3); got.Importance != 1 {
		t.Errorf("+ at importance 1 left %v", got.Importance)
	}
}

// TestUndoOfStackedBatchesOnOneMemory: undo takes the newest batch back
// first, then the one before it. A later batch that was itself rolled back
// is no conflict, so the second undo goes through and memory 2 is exactly
// as it was before the first key.
func TestUndoOfStackedBatchesOnOneMemory(t *testing.T) {
	m, s := openMemories(t, newMemories(3), 100, 30)
	orig := memory(t, s, 2)
	m = drive(t, m, press("down"), press("x"), press("+"))
	if got := memory(t, s, 2); got.Importance == 0.5 || got.Status != engine.StatusQuarantined {
		t.Fatalf("x then + left %+v", got)
	}
	m = drive(t, m, press("u"))
	if got := memory(t, s, 2); got.Importance != 0.5 || got.Status != engine.StatusQuarantined {
		t.Fatalf("undo of + after x left %+v", got)
	}
	m = drive(t, m, press("u"))
	got := memory(t, s, 2)
	// Seq counts writes of the row; everything the curator sees is restored.
	got.Seq, orig.Seq = 0, 0
	if !reflect.DeepEqual(got, orig) {
		t.Errorf("after undoing x and +:\n got %+v\nwant %+v", got, orig)
	}
	view := screen(m)
	if len(m.memories().batches) != 0 || !strings.Contains(view, "undid curator-") || strings.Contains(view, "cannot roll back") {
		t.Errorf("the second undo was not reported as done:\n%s", view)
	}
	m = drive(t, m, press("u"))
	if !strings.Contains(screen(m), "nothing to undo") {
		t.Errorf("a third undo should have nothing left:\n%s", screen(m))
	}
}

func TestKoreanRowsAlign(t *testing.T) {
	ms := newMemories(6)
	ms[0].Content = "사용자는 녹차를 좋아하고 커피는 마시지 않는다"
	ms[1].Type = "선호"
	ms[1].Key = "메시지-열두번째-키"
	ms[2].Content = "mixed 한국어 and English 텍스트 with wide 문자"
	ms[3].Content = "👩\u200d💻 emoji and 日本語"
	s := openStore(t, ms, nil)
	for _, w := range []int{100, 137} {
		m := goTo(t, newTestModel(t, s, w, 30), "Memories")
		var rows []string
		for _, l := range strings.Split(screen(m), "\n") {
			if strings.Contains(l, "msg-") || strings.Contains(l, "메시지") || strings.HasPrefix(strings.TrimSpace(l), "ID") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 7 {
			t.Fatalf("width %d: found %d table lines", w, len(rows))
		}
		for _, r := range rows {
			if got := safetext.Width(r); got != w {
				t.Errorf("width %d: row is %d cells: %q", w, got, r)
			}
		}
		// The CONTENT column starts at the same cell on every row.
		header := rows[0]
		col := safetext.Width(header[:strings.Index(header, "CONTENT")])
		for _, r := range rows[1:] {
			if imp := strings.Index(r, "0.50 "); imp < 0 || safetext.Width(r[:imp])+5 != col {
				t.Errorf("width %d: content column misaligned in %q", w, r)
			}
		}
	}
}

func TestMemoryTextIsNeutralised(t *testing.T) {
	ms := newMemories(2)
	ms[0].Content = "hi\x1b]0;pwned\x07 there\x1b[2J gone \u202eevil"
	ms[0].Key = "k\x1b[31m"
	m, _ := openMemories(t, ms, 120, 30)
	m = drive(t, m, press("enter")) // the detail shows the content in full
	raw := m.View().Content
	for _, bad := range []string{"\x1b]0;pwned", "\x1b[2J", "\x07", "\u202e", "k\x1b[31m"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the frame carries %q from memory text", bad)
		}
	}
	view := screen(m)
	if strings.Contains(view, "\x1b") {
		t.Error("an ESC survives outside styling")
	}
	for _, want := range []string{"␛]0;pwned␇", "␛[2J", "⟨RLO⟩evil"} {
		if !strings.Contains(view, want) {
			t.Errorf("the curator cannot see %q:\n%s", want, view)
		}
	}
}

// A memory a newer one superseded reads "superseded" in the Memories
// list's STATUS column, not active; status:superseded lists exactly the
// memories linked to a newer one (the store counts them), and nothing else.
func TestMemoriesMarkSuperseded(t *testing.T) {
	eng, db := openDemo(t)
	all, _, err := db.FindMemories(context.Background(), engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var former []int64
	for _, mem := range all {
		if mem.SupersededBy != 0 {
			former = append(former, mem.ID)
		}
		if got := statusCell(mem); (got == "superseded") != (mem.SupersededBy != 0 && mem.Status == engine.StatusActive) {
			t.Errorf("memory %d (status %s, superseded by %d) reads %q", mem.ID, mem.Status, mem.SupersededBy, got)
		}
	}
	if len(former) == 0 {
		t.Fatal("the demo has no superseded memory: the test needs one")
	}
	m := goTo(t, startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 120, 40), "Memories")
	m = drive(t, m, press("/"))
	m = typeText(t, m, "status:superseded")
	m = drive(t, m, press("enter"))
	p := m.memories()
	if p.filterProblem != "" || p.list.total != len(former) {
		t.Fatalf("status:superseded: %d rows (problem %q), want the %d superseded memories:\n%s", p.list.total, p.filterProblem, len(former), screen(m))
	}
	for i := range min(p.list.total, p.list.visible) {
		mem, ok := p.list.row(i)
		if !ok || mem.SupersededBy == 0 {
			t.Errorf("row %d of status:superseded is not a superseded memory: %+v", i, mem)
		}
	}
	if !strings.Contains(screen(m), " superseded ") {
		t.Errorf("no row reads superseded:\n%s", screen(m))
	}
}

// TestImportanceWithoutARowAnswers: + and − with no memory under the
// cursor (an empty list, or rows not fetched yet) write nothing and say so,
// instead of doing nothing silently.
func TestImportanceWithoutARowAnswers(t *testing.T) {
	m, _ := openMemories(t, nil, 100, 30)
	for _, k := range []string{"+", "-"} {
		next, cmd := m.Update(press(k))
		m = next.(Model)
		p := m.memories()
		if p.writes != 0 || cmd != nil {
			t.Fatalf("%s on an empty list started a write", k)
		}
		if !strings.Contains(p.status, "nothing was changed") {
			t.Fatalf("%s on an empty list says %q, want that nothing was changed", k, p.status)
		}
	}
}
