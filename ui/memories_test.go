package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/engine/safetext"
)

func TestMemoriesFilterTyping(t *testing.T) {
	s := &memStore{memories: seedMemories(30)}
	s.memories[4].Status = engine.StatusQuarantined
	s.memories[4].Content = "녹차를 좋아함"
	s.memories[9].Content = "녹차 말고 커피"
	m := newTestModel(t, s, 100, 30)

	m = drive(t, m, press("/"))
	if !m.memories().Typing() {
		t.Fatal("/ did not focus the filter")
	}
	m = typeText(t, m, "status:quarantined 녹차")
	// q typed into the filter is text, not quit.
	p := m.memories()
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
	m = drive(t, m, press("enter"))
	if m.memories().Typing() {
		t.Error("enter left the filter focused")
	}
	if !strings.Contains(screen(m), "status:quarantined 녹차") {
		t.Error("the filter text disappeared after enter")
	}
}

func TestMemoryQuery(t *testing.T) {
	f := memoryQuery("type:health kind:Episode tier:hot foo bar:")
	if *f.Type != "health" || *f.Kind != engine.KindEpisode || *f.Tier != engine.TierHot || f.Status != nil || f.Text != "foo bar:" {
		t.Errorf("memoryQuery = %+v", f)
	}
}

func TestMemoriesPaging(t *testing.T) {
	s := &memStore{memories: seedMemories(5000)}
	m := newTestModel(t, s, 100, 30)
	p := m.memories()
	if p.list.total != 5000 {
		t.Fatalf("total = %d", p.list.total)
	}
	for _, n := range s.fetched {
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
	if s.lastFilter.Offset == 0 {
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
	s := &memStore{memories: seedMemories(3)}
	m := newTestModel(t, s, 100, 30)
	m = drive(t, m, press("down")) // #2
	m = drive(t, m, press("x"))
	got := s.memories[1]
	if got.Status != engine.StatusQuarantined || got.OrigType != "preference" || got.Type != "preference" {
		t.Fatalf("after x: %+v", got)
	}
	if len(s.audit) != 1 || s.audit[0].Actor != "curator" || s.audit[0].Action != "quarantine" || s.audit[0].MemoryID != 2 {
		t.Fatalf("audit after x: %+v", s.audit)
	}
	firstBatch := s.audit[0].Batch
	if !strings.Contains(screen(m), "quarantined") {
		t.Error("the list still shows the old status")
	}

	m = drive(t, m, press("+"))
	if got.Importance != 0.6 {
		t.Fatalf("importance after + = %v", got.Importance)
	}
	if s.audit[1].Batch == firstBatch {
		t.Error("two curator actions share a batch")
	}
	m = drive(t, m, press("u"))
	if got.Importance != 0.5 || got.Status != engine.StatusQuarantined {
		t.Fatalf("undo of + left %+v", got)
	}
	m = drive(t, m, press("u"))
	if got.Status != engine.StatusActive {
		t.Fatalf("undo of x left status %s", got.Status)
	}
	last := s.audit[len(s.audit)-1]
	if last.Batch != "rollback:"+firstBatch || last.Actor != "curator" {
		t.Errorf("rollback audit row = %+v", last)
	}
	m = drive(t, m, press("u"))
	if !strings.Contains(screen(m), "nothing to undo") {
		t.Error("a third u did not say there is nothing to undo")
	}

	// Restore undoes a quarantine made elsewhere; the detail lists the audit.
	s.memories[2].Status = engine.StatusQuarantined
	m = drive(t, m, press("R"), press("down"), press("r"))
	if s.memories[2].Status != engine.StatusActive {
		t.Fatalf("r left %s", s.memories[2].Status)
	}
	m = drive(t, m, press("enter"))
	view := screen(m)
	for _, want := range []string{"audit history", "restore", "status quarantined→active", "orig_type", "importance"} {
		if !strings.Contains(view, want) {
			t.Errorf("detail lacks %q:\n%s", want, view)
		}
	}
	// Importance stays within 0..1 and a no-op writes nothing.
	s.memories[2].Importance = 1
	before := len(s.audit)
	m = drive(t, m, press("R"), press("+"))
	if len(s.audit) != before || !strings.Contains(screen(m), "nothing to change") {
		t.Errorf("+ at importance 1 wrote %d audit rows", len(s.audit)-before)
	}
}

func TestKoreanRowsAlign(t *testing.T) {
	s := &memStore{memories: seedMemories(6)}
	s.memories[0].Content = "사용자는 녹차를 좋아하고 커피는 마시지 않는다"
	s.memories[1].Type = "선호"
	s.memories[1].Key = "메시지-열두번째-키"
	s.memories[2].Content = "mixed 한국어 and English 텍스트 with wide 문자"
	s.memories[3].Content = "👩\u200d💻 emoji and 日本語"
	for _, w := range []int{100, 137} {
		m := newTestModel(t, s, w, 30)
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
	s := &memStore{memories: seedMemories(2)}
	s.memories[0].Content = "hi\x1b]0;pwned\x07 there\x1b[2J gone \u202eevil"
	s.memories[0].Key = "k\x1b[31m"
	m := newTestModel(t, s, 120, 30)
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

// BenchmarkMemoriesView100k measures a keypress to a rendered frame with
// 100k memories behind the list (target: ≤ 16 ms).
func BenchmarkMemoriesView100k(b *testing.B) {
	s := &memStore{memories: seedMemories(100_000)}
	for i, mem := range s.memories {
		if i%3 == 0 {
			mem.Content = "사용자는 녹차를 좋아하고 커피는 마시지 않는다 " + mem.Content
		}
	}
	m := newTestModel(b, s, 200, 50)
	m = drive(b, m, press("enter"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next, cmd := m.Update(press("down"))
		m = next.(Model)
		if cmd != nil {
			b.StopTimer()
			m = drive(b, m, run(cmd)...)
			b.StartTimer()
		}
		_ = m.View()
	}
}
