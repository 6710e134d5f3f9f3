package ui

import (
	"context"
	"testing"
	"time"

	"memtrace/internal/testdata/benchtest"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// BenchmarkMemoriesView100k measures a keypress to a rendered frame in the
// Memories tab with 100k memories in a real SQLite store (target: ≤ 16 ms):
// Update, every command it returns run to completion (page fetches, the
// audit of the newly selected memory) and fed back, then View. The detail
// pane is open, so each move also loads an audit history.
//
// The filter is debounced: "filter-keystroke" is one keystroke to its frame
// (the query waits for the debounce tick, as in the program), and
// "filter-burst" a burst of keystrokes, then the last one's tick, its one
// query and the frame with the result.
func BenchmarkMemoriesView100k(b *testing.B) {
	ms := newMemories(100_000)
	for i, mem := range ms {
		if i%3 == 0 {
			mem.Content = "사용자는 녹차를 좋아하고 커피는 마시지 않는다 " + mem.Content
		}
	}
	s := openStore(b, ms, nil)
	// The reference of the same run: a frame with nothing to do (View of
	// the open detail, no key). Each case below is reported against it.
	b.Run("empty-frame", func(b *testing.B) {
		m := memoriesOnly(b, s, 200, 50)
		m = drive(b, m, press("enter"))
		cpu := startCPU(b)
		for i := 0; i < b.N; i++ {
			_ = m.View()
		}
		cpu.report()
	})
	for _, bc := range []struct {
		name string
		keys []tea.Msg
	}{
		{"down", []tea.Msg{press("down")}},
		{"up", []tea.Msg{keyPress("up")}},
		{"pgdown", []tea.Msg{press("pgdown")}},
		{"pgup", []tea.Msg{keyPress("pgup")}},
		// The palette over 100k rows: open it, type, close it.
		{"palette", []tea.Msg{keyPress(":"), keyPress("m"), keyPress("esc")}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			m := memoriesOnly(b, s, 200, 50)
			m = drive(b, m, press("enter"))
			if bc.name == "up" || bc.name == "pgup" {
				// Start deep in the list, so every press moves.
				m = drive(b, m, keyPress("end"))
			}
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				m = drive(b, m, bc.keys...)
				_ = m.View()
			}
			cpu.report()
			if m.memories().list.total == 0 {
				b.Fatal("the list is empty")
			}
		})
	}
	// Alternate adding and removing the characters, so every keystroke
	// changes the query.
	keystroke := func(i int) tea.Msg {
		if i%2 == 1 {
			return tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		return press("녹")
	}
	b.Run("filter-keystroke", func(b *testing.B) {
		m := memoriesOnly(b, s, 200, 50)
		m = drive(b, m, press("/"))
		_, before := s.last()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			next, _ := m.Update(keystroke(i))
			m = next.(Model)
			_ = m.View()
		}
		b.StopTimer()
		if _, after := s.last(); len(after) != len(before) {
			b.Fatalf("keystrokes ran %d queries; the debounce should have held them", len(after)-len(before))
		}
	})
	b.Run("filter-burst", func(b *testing.B) {
		m := memoriesOnly(b, s, 200, 50)
		m = drive(b, m, press("enter"), press("/"))
		_, before := s.last()
		const burst = 4
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for k := range burst {
				next, _ := m.Update(keystroke(i + k))
				m = next.(Model)
				_ = m.View()
			}
			if i%2 == 0 {
				// Leave "녹" in the filter on every other burst, so each
				// burst's query differs from the last.
				next, _ := m.Update(press("녹"))
				m = next.(Model)
			} else {
				next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
				m = next.(Model)
			}
			m = drive(b, m, send(paneMemories, filterTickMsg{Seq: m.memories().filterSeq}))
			_ = m.View()
		}
		b.StopTimer()
		_, after := s.last()
		b.ReportMetric(float64(len(after)-len(before))/float64(b.N), "queries/burst")
		if m.memories().list.total == 0 {
			b.Fatal("the list is empty")
		}
	})
	// filter-result: the last keystroke, the debounce tick, the query over
	// 100k rows and the frame with its result. The time a user waits after
	// the last keystroke is filterDebounce plus this; it is reported as
	// ms-after-last-key (target: ≤ 250).
	b.Run("filter-result", func(b *testing.B) {
		m := memoriesOnly(b, s, 200, 50)
		m = drive(b, m, press("/"))
		cpu := startCPU(b)
		for i := 0; i < b.N; i++ {
			next, _ := m.Update(keystroke(i))
			m = next.(Model)
			m = drive(b, m, send(paneMemories, filterTickMsg{Seq: m.memories().filterSeq}))
			_ = m.View()
		}
		cpu.report()
		perOp := b.Elapsed() / time.Duration(max(1, b.N))
		b.ReportMetric(float64((filterDebounce+perOp).Microseconds())/1000, "ms-after-last-key")
		if m.memories().list.total == 0 {
			b.Fatal("the list is empty")
		}
	})
}

// memoriesOnly is the UI on s with the Memories tab open and only its
// first load done: the other tabs' loads (Curate's is measured by
// BenchmarkCurateOpen100k) run beside the keys in the program and are not
// what these benchmarks measure.
func memoriesOnly(b *testing.B, s engine.Store, w, h int) Model {
	b.Helper()
	m := newModel(context.Background(), Deps{Store: s, Now: func() time.Time { return testNow }, NoColor: true})
	m = drive(b, m, tea.WindowSizeMsg{Width: w, Height: h})
	i := m.paneIndex(paneMemories)
	var cmd tea.Cmd
	m.panes[i], cmd = m.panes[i].Update(startMsg{})
	m.active = i
	return drive(b, m, runCmd(b, cmd)...)
}

// cpuMeter reports the process's CPU time per op beside the wall time:
// on a machine shared with other work the wall time mostly measures the
// wait for a core, the CPU time what a frame costs.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) cpuMeter {
	b.ResetTimer()
	return cpuMeter{b: b, start: benchtest.ProcessCPU()}
}

func (c cpuMeter) report() {
	c.b.StopTimer()
	c.b.ReportMetric(float64((benchtest.ProcessCPU()-c.start).Microseconds())/1000/float64(max(1, c.b.N)), "cpu-ms/op")
}
