package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkMemoriesView100k measures a keypress to a rendered frame in the
// Memories tab with 100k memories in a real SQLite store (target: ≤ 16 ms):
// Update, every command it returns run to completion (page fetches, the
// audit of the newly selected memory) and fed back, then View. The detail
// pane is open, so each move also loads an audit history.
func BenchmarkMemoriesView100k(b *testing.B) {
	ms := newMemories(100_000)
	for i, mem := range ms {
		if i%3 == 0 {
			mem.Content = "사용자는 녹차를 좋아하고 커피는 마시지 않는다 " + mem.Content
		}
	}
	s := openStore(b, ms, nil)
	for _, bc := range []struct {
		name string
		keys []tea.Msg
	}{
		{"down", []tea.Msg{press("down")}},
		{"pgdown", []tea.Msg{press("pgdown")}},
		// One keystroke in the filter: a new query over every row.
		{"filter", []tea.Msg{press("/"), press("녹")}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			m := goTo(b, newTestModel(b, s, 200, 50), "Memories")
			m = drive(b, m, press("enter"))
			keys := bc.keys
			if bc.name == "filter" {
				m = drive(b, m, keys[0])
				keys = keys[1:]
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if bc.name == "filter" && i > 0 {
					// Alternate adding and removing the character, so every
					// keystroke changes the query.
					if i%2 == 1 {
						keys = []tea.Msg{tea.KeyPressMsg{Code: tea.KeyBackspace}}
					} else {
						keys = bc.keys[1:]
					}
				}
				m = drive(b, m, keys...)
				_ = m.View()
			}
			b.StopTimer()
			if m.memories().list.total == 0 {
				b.Fatal("the list is empty")
			}
		})
	}
	// The UI thread alone on a filter keystroke: Update and View, the
	// query left running in its command as the program would.
	b.Run("filter-frame", func(b *testing.B) {
		m := goTo(b, newTestModel(b, s, 200, 50), "Memories")
		m = drive(b, m, press("/"))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var k tea.Msg = press("녹")
			if i%2 == 1 {
				k = tea.KeyPressMsg{Code: tea.KeyBackspace}
			}
			next, _ := m.Update(k)
			m = next.(Model)
			_ = m.View()
		}
	})
}
