package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// memoriesKeys are the Memories tab's own keys.
type memoriesKeys struct {
	list                                        listKeys
	Filter, Apply, Clear, Detail, Close         key.Binding
	ClearFilter                                 key.Binding
	Quarantine, Restore, MoreImp, LessImp, Undo key.Binding
	Reload                                      key.Binding
	sup                                         supersedeKeys
	sel                                         memoriesSelectKeys
	scroll                                      scrollKeys
}

func defaultMemoriesKeys() memoriesKeys {
	return memoriesKeys{
		list:        memoriesListKeys(),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Apply:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		Clear:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Detail:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Close:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close detail")),
		Quarantine:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "quarantine")),
		Restore:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restore")),
		MoreImp:     key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "importance +0.1")),
		LessImp:     key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "importance −0.1")),
		Undo:        key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo last curator batch")),
		Reload:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reload")),
		sup:         defaultSupersedeKeys(),
		sel:         defaultMemoriesSelectKeys(),
		scroll:      memoriesScrollKeys(),
	}
}

// Messages of the Memories tab, delivered in a paneMsg envelope.
type (
	memoriesPageMsg = pageMsg[*engine.Memory]
	memoryAuditMsg  struct {
		ID      int64
		Entries []*engine.AuditEntry
		Err     error
	}
	curatedMsg struct {
		Action  string
		ID      int64
		IDs     []int64 // every memory the action was for (a selection)
		Count   int     // how many of them it changed
		Batch   string
		Changed bool
		Err     error
	}
	// filterTickMsg fires filterDebounce after a keystroke in the filter;
	// only the tick of the latest keystroke (Seq) runs the query.
	filterTickMsg struct{ Seq int }
	undoneMsg     struct {
		Batch      string
		Restored   int
		Err        error // the rollback failed: the batch can be undone again
		RefreshErr error // rolled back, but the engine's caches lag
	}
)

// memoriesPane is the Memories tab: a virtualised, filterable list of every
// memory, a detail view with the audit history, and curator actions.
type memoriesPane struct {
	c      *common
	keys   memoriesKeys
	input  textinput.Model
	filter engine.MemoryFilter // the filter of the rows on screen
	// filterSeq counts keystrokes that changed the filter text; filterRan
	// is the count the last query ran at.
	filterSeq, filterRan int
	// filterProblem is what the filter bar could not use (an unknown field
	// or value), shown on the status line.
	filterProblem string

	list          pager[*engine.Memory]
	width, height int

	detail       bool
	dscroll      detailScroll // the open detail's scroll (J/K)
	audit        []*engine.AuditEntry
	auditFor     int64
	auditLoading bool

	// batches are the curator batches written in this session, newest
	// last; undo rolls back the newest.
	batches []string
	writes  int

	// linkFrom is the memory a supersession link starts from (s), while
	// the curator chooses the other one; supDlg is its confirmation.
	linkFrom *engine.Memory
	supDlg   *supersedeDialog

	// selected are the memories x, r, + and - act on (space, V); anchor
	// is the row a V range started at (-1: none).
	selected map[int64]bool
	anchor   int

	status string
	err    string
}

func newMemoriesPane(c *common) memoriesPane {
	in := newTextInput(c, "/ ", "status:quarantined type:preference kind:fact tier:hot text…")
	return memoriesPane{c: c, keys: defaultMemoriesKeys(), input: in, anchor: -1}
}

func (p memoriesPane) ID() paneID    { return paneMemories }
func (p memoriesPane) Title() string { return "Memories" }
func (p memoriesPane) Typing() bool  { return p.input.Focused() || p.supDlg != nil }
func (p memoriesPane) Busy() bool    { return p.list.loading || p.auditLoading || p.writes > 0 }

func (p memoriesPane) KeyBindings() []key.Binding {
	k := p.keys
	if p.input.Focused() {
		return []key.Binding{k.Apply, k.Clear}
	}
	if sup := p.supersedeBindings(); sup != nil {
		if p.supDlg != nil {
			return sup
		}
		return append(sup, k.list.bindings()...)
	}
	out := []key.Binding{k.Filter}
	switch {
	case p.anchor >= 0 || len(p.selected) > 0:
		out = append(out, k.sel.Clear)
	case p.detail:
		out = append(out, k.Close)
	case p.input.Value() != "":
		out = append(out, k.ClearFilter)
	}
	if p.list.total == 0 {
		// No rows (an empty database or a filter that matches none):
		// only what does not need one.
		return append(out, k.Undo, k.Reload)
	}
	moves := k.list.bindings()
	if !p.detail {
		out = append(out, k.Detail)
	} else {
		n := p.detailRoom()
		total := len(p.detailLines(n))
		out = append(out, p.dscroll.bindings(k.scroll.Down, k.scroll.Up, total, n)...)
		if overflows(total, n) {
			// pgup/pgdn page the overflowing detail, not the list.
			moves = []key.Binding{k.list.Up, k.list.Down, k.list.Top, k.list.Bottom}
			out = append(out, p.dscroll.bindings(k.scroll.PageDown, k.scroll.PageUp, total, n)...)
		}
	}
	out = append(out, k.Quarantine, k.Restore, k.MoreImp, k.LessImp, k.sel.Select, k.sel.Range, k.sup.Supersede, k.Undo, k.Reload)
	return append(out, listMoves(p.list.total, moves...)...)
}

// memoriesScrollKeys scroll the open detail: J/K a line, pgup/pgdn a page
// while it overflows (else they page the list).
func memoriesScrollKeys() scrollKeys {
	k := defaultScrollKeys()
	k.PageDown = key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "detail page down"))
	k.PageUp = key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "detail page up"))
	return k
}

// Layout: filter bar, column header, rows, then (with the detail open) the
// detail; one status line at the bottom.
const memoriesChrome = 3

// memoriesTallHeight is the pane height from which the list keeps a third
// of the pane above the open detail.
const memoriesTallHeight = 34

func (p memoriesPane) SetSize(w, h int) pane {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, w-4))
	p.list.setVisible(p.listRows())
	return p
}

func (p memoriesPane) listRows() int {
	rows := p.height - memoriesChrome - p.supersedeHeight()
	if p.detail {
		rows = max(3, rows/3)
		if p.height < memoriesTallHeight {
			// A short terminal keeps the selected row above the detail, so
			// that the decay curve, its forecast and the audit rows fit.
			rows = 1
		}
	}
	return max(1, rows)
}

func (p memoriesPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	p, cmd := p.update(msg)
	return p, cmd
}

func (p memoriesPane) update(msg tea.Msg) (memoriesPane, tea.Cmd) {
	switch msg := msg.(type) {
	case restyleMsg:
		p.input.SetStyles(p.c.styles.Input)
		return p, nil
	case startMsg:
		return p.fetchIfNeeded()
	case memoriesPageMsg:
		if !p.list.accept(msg, "memories", &p.err) {
			return p, nil
		}
		return p.moved()
	case memoryAuditMsg:
		if msg.ID != p.auditFor {
			return p, nil
		}
		p.auditLoading = false
		if msg.Err != nil {
			p.err = "load audit: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.audit = msg.Entries
		return p, nil
	case filterTickMsg:
		if msg.Seq != p.filterSeq {
			return p, nil // a keystroke came after it
		}
		return p.runFilter()
	case storeChangedMsg:
		if p.writes > 0 {
			return p, nil // its own reload follows its write
		}
		return p.reload()
	case curatedMsg:
		return p.curated(msg)
	case undoneMsg:
		return p.undone(msg)
	case OpenMemoryMsg:
		// Shown by key, with the detail open.
		p.input.SetValue("key:" + msg.Key)
		p.detail = true
		p.list.setVisible(p.listRows())
		p, cmd := p.runFilter()
		p, more := p.moved()
		return p, tea.Batch(cmd, more)
	case tea.KeyPressMsg:
		return p.handleKey(msg)
	case tea.MouseWheelMsg:
		// The wheel over the open detail scrolls it (rows start below the
		// filter bar and the column header); over the list, the list.
		if p.detail && msg.Mouse().Y >= 2+p.list.visible {
			n := p.detailRoom()
			p.dscroll, _ = p.dscroll.update(msg, p.keys.scroll, len(p.detailLines(n)), n)
			return p, nil
		}
		p.list.wheel(msg)
		return p.moved()
	case tea.MouseClickMsg:
		// Rows start below the filter bar and the column header.
		if y := msg.Mouse().Y - 2; y >= 0 && y < p.listRows() && msg.Mouse().Button == tea.MouseLeft {
			p.list.moveTo(p.list.top + y)
			return p.moved()
		}
		return p, nil
	}
	return p, updateFocused(&p.input, msg)
}

func (p memoriesPane) handleKey(msg tea.KeyPressMsg) (memoriesPane, tea.Cmd) {
	k := p.keys
	if p.input.Focused() {
		if key.Matches(msg, k.Clear) {
			// esc clears the filter; enter keeps it.
			p.input.SetValue("")
		}
		if key.Matches(msg, k.Apply, k.Clear) {
			// Leaving the filter runs what was typed at once.
			p.input.Blur()
			return p.runFilter()
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		if f := memoryQuery(p.input.Value()); !sameMemoryFilter(f, p.filter) || p.filterSeq != p.filterRan {
			// Debounced: each keystroke re-arms the timer; only the tick
			// of the last one queries the store.
			p.filterSeq++
			seq := p.filterSeq
			tick := tea.Tick(filterDebounce, func(time.Time) tea.Msg { return send(paneMemories, filterTickMsg{Seq: seq}) })
			cmd = tea.Batch(cmd, tick)
		}
		return p, cmd
	}
	if p.supDlg != nil {
		p, cmd := p.supersedeKey(msg)
		return p.relayout(), cmd
	}
	if p.linkFrom != nil {
		switch {
		case key.Matches(msg, k.sup.Choose):
			p, cmd := p.chooseOther()
			return p.relayout(), cmd
		case key.Matches(msg, k.sup.CancelLink):
			p.linkFrom = nil
			p.status = "cancelled: nothing was linked"
			return p.relayout(), nil
		}
	}
	switch {
	case key.Matches(msg, k.sel.Clear) && p.anchor >= 0:
		p.anchor = -1
		p.status = "range cancelled"
		return p, nil
	case key.Matches(msg, k.sel.Clear) && len(p.selected) > 0:
		p.selected = map[int64]bool{}
		p.status = "selection cleared"
		return p, nil
	case key.Matches(msg, k.sel.Select):
		return p.toggleSelected().moved()
	case key.Matches(msg, k.sel.Range):
		return p.rangeSelect(), nil
	case key.Matches(msg, k.Filter):
		return p, p.input.Focus()
	case key.Matches(msg, k.sup.Supersede) && p.linkFrom == nil:
		p, cmd := p.startSupersede()
		return p.relayout(), cmd
	case key.Matches(msg, k.scroll.Down, k.scroll.Up) && p.detail:
		n := p.detailRoom()
		p.dscroll, _ = p.dscroll.update(msg, k.scroll, len(p.detailLines(n)), n)
		return p, nil
	case key.Matches(msg, k.scroll.PageDown, k.scroll.PageUp) && p.detail && overflows(len(p.detailLines(p.detailRoom())), p.detailRoom()):
		n := p.detailRoom()
		p.dscroll, _ = p.dscroll.update(msg, k.scroll, len(p.detailLines(n)), n)
		return p, nil
	case key.Matches(msg, k.Close) && p.detail:
		p.detail = false
		p.list.setVisible(p.listRows())
		return p.moved()
	case key.Matches(msg, k.ClearFilter) && p.input.Value() != "":
		p.input.SetValue("")
		return p.runFilter()
	case key.Matches(msg, k.Detail):
		p.detail = !p.detail
		p.list.setVisible(p.listRows())
		return p.moved()
	case key.Matches(msg, k.Quarantine):
		return p.quarantine()
	case key.Matches(msg, k.Restore):
		return p.restore()
	case key.Matches(msg, k.MoreImp):
		return p.changeImportance(+0.1)
	case key.Matches(msg, k.LessImp):
		return p.changeImportance(-0.1)
	case key.Matches(msg, k.Undo):
		return p.undo()
	case key.Matches(msg, k.Reload):
		return p.reload()
	}
	if p.list.navigate(k.list, msg) {
		return p.moved()
	}
	return p, nil
}

// moved fetches the window when the visible rows left it, and the audit of
// the newly selected memory when the detail is open.
func (p memoriesPane) moved() (memoriesPane, tea.Cmd) {
	p.dscroll = detailScroll{} // another memory's detail starts at its top
	p, cmd := p.fetchIfNeeded()
	audit := p.loadAuditIfNeeded()
	return p, tea.Batch(cmd, audit)
}

// reload fetches the current window again (after a write, or on R: another
// process may have changed the store).
func (p memoriesPane) reload() (memoriesPane, tea.Cmd) {
	off := p.list.off
	if !p.list.loaded {
		off = 0
	}
	p, cmd := p.fetch(off)
	p.auditFor = 0
	audit := p.loadAuditIfNeeded()
	return p, tea.Batch(cmd, audit)
}

func (p memoriesPane) fetchIfNeeded() (memoriesPane, tea.Cmd) {
	off, ok := p.list.need()
	if !ok {
		return p, nil
	}
	return p.fetch(off)
}

func (p memoriesPane) fetch(off int) (memoriesPane, tea.Cmd) {
	f := p.filter
	ctx, store := p.c.ctx, p.c.deps.Store
	return p, p.list.fetchCmd(paneMemories, off, func(limit, offset int) ([]*engine.Memory, int, error) {
		f.Limit, f.Offset = limit, offset
		return store.FindMemories(ctx, f)
	})
}

// loadAuditIfNeeded fetches the audit history of the selected memory when
// the detail shows and it is not loaded yet.
func (p *memoriesPane) loadAuditIfNeeded() tea.Cmd {
	if !p.detail {
		return nil
	}
	m, ok := p.list.selected()
	if !ok || m.ID == p.auditFor {
		return nil
	}
	p.auditFor, p.audit, p.auditLoading = m.ID, nil, true
	id, ctx, store := m.ID, p.c.ctx, p.c.deps.Store
	return func() tea.Msg {
		entries, err := store.AuditForMemory(ctx, id)
		return send(paneMemories, memoryAuditMsg{ID: id, Entries: entries, Err: err})
	}
}

// filterDebounce is how long the filter waits after the last keystroke
// before it queries: a burst of typing runs one query, not one a key (at
// 100k memories a query takes tens of milliseconds, a frame must take 16).
const filterDebounce = 150 * time.Millisecond

// runFilter applies the typed filter now: a new query when it changed.
// Pending ticks become stale.
func (p memoriesPane) runFilter() (memoriesPane, tea.Cmd) {
	p.filterSeq++
	p.filterRan = p.filterSeq
	f, problem := memoryQueryCheck(p.input.Value())
	p.filterProblem = problem
	if sameMemoryFilter(f, p.filter) {
		return p, nil
	}
	p.filter = f
	p.list.reset()
	return p.fetchIfNeeded()
}

func sameMemoryFilter(a, b engine.MemoryFilter) bool {
	eq := func(x, y *string) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	str := func(s *engine.Status) *string {
		if s == nil {
			return nil
		}
		v := string(*s)
		return &v
	}
	kind := func(k *engine.Kind) *string {
		if k == nil {
			return nil
		}
		v := string(*k)
		return &v
	}
	tier := func(t *engine.Tier) *string {
		if t == nil {
			return nil
		}
		v := string(*t)
		return &v
	}
	return a.Text == b.Text && a.Key == b.Key && eq(a.Type, b.Type) && eq(str(a.Status), str(b.Status)) &&
		eq(kind(a.Kind), kind(b.Kind)) && eq(tier(a.Tier), tier(b.Tier)) && a.Superseded == b.Superseded
}
