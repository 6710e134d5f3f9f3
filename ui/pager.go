package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// pager keeps a window of rows of a result that may be far larger than the
// screen (100k memories): the pane fetches pages with Limit/Offset and
// renders only the visible rows. Replies carry the request's sequence number;
// a reply to an older request is dropped.
type pager[T any] struct {
	rows    []T // rows[i] is row off+i of the result
	off     int
	total   int
	loaded  bool // a reply has arrived since the last reset
	cursor  int
	top     int // first visible row
	visible int
	seq     int // newest request
	wantOff int // offset of the request in flight
	loading bool
}

// windowSize is how many rows one request fetches: a few screens, so that
// scrolling a page rarely waits.
func (p *pager[T]) windowSize() int {
	return max(200, 4*p.visible)
}

func (p *pager[T]) setVisible(n int) {
	p.visible = max(1, n)
	p.clamp()
}

// reset forgets the rows (the filter changed) and moves to the top.
func (p *pager[T]) reset() {
	p.rows, p.off, p.total, p.loaded = nil, 0, 0, false
	p.cursor, p.top = 0, 0
}

// move moves the cursor by delta rows and scrolls to keep it visible.
func (p *pager[T]) move(delta int) {
	p.cursor += delta
	p.clamp()
}

// moveTo puts the cursor on row i.
func (p *pager[T]) moveTo(i int) {
	p.cursor = i
	p.clamp()
}

// scroll moves the view by delta rows, dragging the cursor along when it
// would leave the screen (mouse wheel).
func (p *pager[T]) scroll(delta int) {
	p.top += delta
	p.top = max(0, min(p.top, p.total-p.visible))
	p.cursor = max(p.top, min(p.cursor, p.top+p.visible-1))
	p.clamp()
}

func (p *pager[T]) clamp() {
	if p.total == 0 {
		p.cursor, p.top = 0, 0
		return
	}
	p.cursor = max(0, min(p.cursor, p.total-1))
	if p.cursor < p.top {
		p.top = p.cursor
	}
	if p.cursor >= p.top+p.visible {
		p.top = p.cursor - p.visible + 1
	}
	p.top = max(0, min(p.top, p.total-p.visible))
	p.top = max(0, p.top)
}

// need reports whether the visible rows are not all in the window, and the
// offset to fetch from: the visible rows land in the first third of the new
// window, so scrolling either way has room.
func (p *pager[T]) need() (int, bool) {
	if !p.loaded {
		return 0, !p.loading
	}
	end := min(p.top+p.visible, p.total)
	covered := func(off, n int) bool { return p.top >= off && end <= off+n }
	if covered(p.off, len(p.rows)) {
		return 0, false
	}
	off := max(0, p.top-p.windowSize()/3)
	if p.loading && covered(p.wantOff, p.windowSize()) {
		return 0, false
	}
	return off, true
}

// request records a request for the window at off and returns its number.
func (p *pager[T]) request(off int) int {
	p.seq++
	p.wantOff = off
	p.loading = true
	return p.seq
}

// receive installs the reply to request seq; it reports false for a stale
// reply, which changes nothing.
func (p *pager[T]) receive(seq, off int, rows []T, total int) bool {
	if seq != p.seq {
		return false
	}
	p.rows, p.off, p.total, p.loaded, p.loading = rows, off, total, true, false
	p.clamp()
	return true
}

// fail ends request seq without rows.
func (p *pager[T]) fail(seq int) {
	if seq == p.seq {
		p.loading = false
		p.loaded = true
	}
}

// row returns row i of the result when it is in the window.
func (p *pager[T]) row(i int) (T, bool) {
	var zero T
	if i < p.off || i >= p.off+len(p.rows) || i >= p.total {
		return zero, false
	}
	return p.rows[i-p.off], true
}

// selected is the row under the cursor.
func (p *pager[T]) selected() (T, bool) {
	return p.row(p.cursor)
}

// wheel scrolls three rows a notch of the mouse wheel; a sideways wheel does
// nothing.
func (p *pager[T]) wheel(msg tea.MouseWheelMsg) {
	switch msg.Mouse().Button {
	case tea.MouseWheelUp:
		p.scroll(-3)
	case tea.MouseWheelDown:
		p.scroll(3)
	}
}

// pageMsg is the reply to a pager request: the rows at Offset of a result
// of Total rows.
type pageMsg[T any] struct {
	Seq, Offset int
	Rows        []T
	Total       int
	Err         error
}

// fetchCmd requests the window at off and returns the command that reads
// it with find, given the window's limit and offset; the reply goes to the
// pane to.
func (p *pager[T]) fetchCmd(to paneID, off int, find func(limit, offset int) ([]T, int, error)) tea.Cmd {
	seq := p.request(off)
	limit := p.windowSize()
	return func() tea.Msg {
		rows, total, err := find(limit, off)
		return send(to, pageMsg[T]{Seq: seq, Offset: off, Rows: rows, Total: total, Err: err})
	}
}

// accept takes a page reply and reports whether its rows are now shown (it
// answers the newest request). It sets *status: "" on success, or what
// failed ("load " + what) in the engine's words.
func (p *pager[T]) accept(msg pageMsg[T], what string, status *string) bool {
	if msg.Err != nil {
		p.fail(msg.Seq)
		*status = "load " + what + ": " + engine.ErrorMessage(msg.Err)
		return false
	}
	if !p.receive(msg.Seq, msg.Offset, msg.Rows, msg.Total) {
		return false
	}
	*status = ""
	return true
}

// navigate moves the cursor for a movement key (a row, a page, the first
// or the last row) and reports whether msg was one.
func (p *pager[T]) navigate(k listKeys, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-p.visible)
	case key.Matches(msg, k.PageDown):
		p.move(p.visible)
	case key.Matches(msg, k.Top):
		p.moveTo(0)
	case key.Matches(msg, k.Bottom):
		p.moveTo(p.total - 1)
	default:
		return false
	}
	return true
}

// listMove is the list keys on a plain slice: the cursor of n rows after
// msg (a row, a page of page rows, the first or the last row), and whether
// msg was one. Lists that hold all their rows (Curate's queues and batch
// history) move with it as the paged lists do.
func listMove(k listKeys, msg tea.KeyPressMsg, cursor, n, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		cursor--
	case key.Matches(msg, k.Down):
		cursor++
	case key.Matches(msg, k.PageUp):
		cursor -= max(1, page)
	case key.Matches(msg, k.PageDown):
		cursor += max(1, page)
	case key.Matches(msg, k.Top):
		cursor = 0
	case key.Matches(msg, k.Bottom):
		cursor = n - 1
	default:
		return cursor, false
	}
	return max(0, min(cursor, n-1)), true
}
