package ui

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// seedActor writes the fixtures; audit helpers leave its "create" rows out.
var seedActor = engine.Actor{Name: "seed", Batch: "seed"}

// newMemories builds n memories; inserted into a fresh store they get ids
// 1..n in order.
func newMemories(n int) []*engine.Memory {
	ms := make([]*engine.Memory, n)
	for i := range ms {
		id := i + 1
		content := fmt.Sprintf("memory number %d likes green tea", id)
		ms[i] = &engine.Memory{Key: fmt.Sprintf("msg-%d", id), Content: content,
			Kind: engine.KindFact, Type: "preference", Status: engine.StatusActive, Tier: engine.TierWarm,
			Scope: engine.ScopeGlobal, Importance: 0.5, CreatedAt: testNow, Hash: engine.ContentHash(content)}
	}
	return ms
}

// recordingStore is the real SQLite store; it also notes what the UI asked
// FindMemories for, to check that the list pages instead of loading
// everything.
type recordingStore struct {
	*store.DB

	mu         sync.Mutex
	lastFilter engine.MemoryFilter
	fetched    []int
}

func (s *recordingStore) FindMemories(ctx context.Context, f engine.MemoryFilter) ([]*engine.Memory, int, error) {
	ms, total, err := s.DB.FindMemories(ctx, f)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastFilter = f
	s.fetched = append(s.fetched, len(ms))
	return ms, total, err
}

func (s *recordingStore) last() (engine.MemoryFilter, []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastFilter, append([]int(nil), s.fetched...)
}

// openStore opens a real SQLite file in tb.TempDir() on the test clock and
// inserts ms and cs, 5000 rows a transaction.
func openStore(tb testing.TB, ms []*engine.Memory, cs []*engine.CaptureRecord) *recordingStore {
	tb.Helper()
	db := storetest.MustOpenClock(tb, func() time.Time { return testNow })
	ctx := context.Background()
	const chunk = 5000
	for start := 0; start < len(ms); start += chunk {
		err := db.Update(ctx, func(q engine.Queries) error {
			for _, m := range ms[start:min(start+chunk, len(ms))] {
				if err := q.InsertMemory(ctx, m, seedActor); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	for _, c := range cs {
		if err := db.InsertCapture(ctx, c); err != nil {
			tb.Fatal(err)
		}
	}
	return &recordingStore{DB: db}
}

// memory reads memory id back from the store.
func memory(tb testing.TB, s *recordingStore, id int64) *engine.Memory {
	tb.Helper()
	m, err := s.GetMemory(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// setMemory changes memory id outside the UI (another process, say the MCP
// server), audited under actor "mcp".
func setMemory(tb testing.TB, s *recordingStore, id int64, change func(m *engine.Memory)) {
	tb.Helper()
	m := memory(tb, s, id)
	change(m)
	if err := s.UpdateMemory(context.Background(), m, engine.Actor{Name: "mcp"}, "update"); err != nil {
		tb.Fatal(err)
	}
}

// changes are the audit rows of every memory except the fixture's own
// "create" rows, in the order they were written.
func changes(tb testing.TB, s *recordingStore) []*engine.AuditEntry {
	tb.Helper()
	ctx := context.Background()
	var out []*engine.AuditEntry
	err := s.ForEachMemory(ctx, func(m *engine.Memory) error {
		rows, err := s.AuditForMemory(ctx, m.ID)
		for _, r := range rows {
			if r.Batch != seedActor.Batch {
				out = append(out, r)
			}
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// openEngine opens the engine over s on the test clock.
func openEngine(tb testing.TB, s engine.Store) *engine.Engine {
	tb.Helper()
	eng, err := engine.Open(context.Background(), engine.Options{Store: s, Now: func() time.Time { return testNow }})
	if err != nil {
		tb.Fatal(err)
	}
	return eng
}

func newTestModel(t testing.TB, s engine.Store, w, h int) Model {
	t.Helper()
	return startModel(t, Deps{Engine: openEngine(t, s), Store: s, Now: func() time.Time { return testNow }, NoColor: true}, w, h)
}

func startModel(t testing.TB, deps Deps, w, h int) Model {
	t.Helper()
	m := newModel(context.Background(), deps)
	m = drive(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return drive(t, m, startMsg{})
}

// cmdDeadline bounds how long one command may take: every command the UI
// returns (store reads and writes, the spinner's tick) finishes well within
// it, and one that does not is a bug.
const cmdDeadline = 10 * time.Second

// drive sends msgs to the model and keeps feeding back what the returned
// commands produce — the envelopes of async results — the way the program
// would, until nothing is left.
func drive(t testing.TB, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	queue := append([]tea.Msg{}, msgs...)
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatal("drive: the model keeps producing messages")
		}
		msg := queue[0]
		queue = queue[1:]
		next, cmd := m.Update(msg)
		m = next.(Model)
		queue = append(queue, runCmd(t, cmd)...)
	}
	return m
}

// runCmd runs cmd to completion — a tea.BatchMsg's commands concurrently,
// as the program does, their results kept in batch order — and returns the
// messages the model must see: async envelopes and startMsg. Messages the
// runtime would handle itself (quit, the spinner's tick, cursor blinks) are
// dropped; a dropped tick leaves the spinner marked as spinning, so no new
// tick is ever asked for and drive ends.
func runCmd(t testing.TB, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	msgs, err := collect(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// collect is runCmd without the testing.TB, so that it can run in the
// goroutines of a batch.
func collect(cmd tea.Cmd) ([]tea.Msg, error) {
	if cmd == nil {
		return nil, nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(cmdDeadline):
		return nil, fmt.Errorf("a command did not finish within %s", cmdDeadline)
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		results := make([][]tea.Msg, len(msg))
		errs := make([]error, len(msg))
		var wg sync.WaitGroup
		for i, c := range msg {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = collect(c)
			}()
		}
		wg.Wait()
		var out []tea.Msg
		for i := range msg {
			if errs[i] != nil {
				return nil, errs[i]
			}
			out = append(out, results[i]...)
		}
		return out, nil
	case paneMsg, startMsg, storeChangedMsg, OpenMemoryMsg, OpenTraceMsg, copiedMsg, noticeMsg, editedMsg:
		return []tea.Msg{msg}, nil
	}
	return nil, nil
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
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
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

func (m Model) curate() curatePane {
	for _, p := range m.panes {
		if cp, ok := p.(curatePane); ok {
			return cp
		}
	}
	panic("no curate pane")
}

// tabIndex is the position of the tab titled title, or -1.
func (m Model) tabIndex(title string) int {
	for i, p := range m.panes {
		if p.Title() == title {
			return i
		}
	}
	return -1
}

func goTo(t testing.TB, m Model, title string) Model {
	t.Helper()
	i := m.tabIndex(title)
	if i < 0 {
		t.Fatalf("no tab %q", title)
	}
	m = drive(t, m, press(fmt.Sprint(i+1)))
	if got := m.panes[m.active].Title(); got != title {
		t.Fatalf("key %d opened %s, want %s", i+1, got, title)
	}
	return m
}
