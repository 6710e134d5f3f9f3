package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
)

// captureLayers are the layer filter's values in the order `l` cycles
// through them; "" is every capture. Dropping layers filter on dropped_by;
// held (needs_review, waiting in the review queue), stored and reinforced
// on the outcome.
func captureLayers() []string {
	return []string{"", engine.LayerL1, engine.LayerL2, engine.LayerJudge, engine.LayerGate, engine.OutcomeStored, engine.OutcomeReinforced, engine.OutcomeHeld}
}

type capturesKeys struct {
	list                                     listKeys
	Filter, Apply, Leave, Layer, Focus, Pick key.Binding
	ClearReason, ClearText, Reload, Audit    key.Binding
	CloseAudit, ClosePatterns                key.Binding
	trail                                    scrollKeys // the decision trail's J/K
}

func defaultCapturesKeys() capturesKeys {
	return capturesKeys{
		list:          defaultListKeys(),
		Filter:        key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter text")),
		Apply:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		Leave:         key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Layer:         key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "cycle layer")),
		Focus:         key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "captures ⇄ patterns")),
		Pick:          key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "filter by pattern")),
		ClearReason:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear pattern")),
		ClearText:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear text filter")),
		Reload:        key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reload")),
		Audit:         key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "store audit")),
		CloseAudit:    key.NewBinding(key.WithKeys("esc", "A"), key.WithHelp("esc/A", "close audit")),
		ClosePatterns: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to captures")),
		trail: scrollKeys{
			Down: key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "scroll trail down")),
			Up:   key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "scroll trail up")),
		},
	}
}

type (
	capturesPageMsg = pageMsg[*engine.CaptureRecord]
	reasonCountsMsg struct {
		Counts []engine.ReasonCount
		Err    error
	}
)

// capturesPane is the Captures tab: every message offered to the capture
// pipeline, what each layer decided and why, and counts per pattern.
type capturesPane struct {
	c     *common
	keys  capturesKeys
	input textinput.Model

	layer  int // index into captureLayers
	reason string
	text   string

	list          pager[*engine.CaptureRecord]
	counts        []engine.ReasonCount
	countsCursor  int
	countsFocus   bool
	countsLoading bool
	width, height int
	err           string

	// The audit view (A), see captures_audit.go.
	audit        *curate.StoreAudit
	auditOpen    bool
	auditLoading bool
	auditScroll  detailScroll // the audit's scroll (↑/↓, pgup/pgdn, the wheel)

	// tscroll is the decision trail's scroll (J/K, the wheel over it);
	// tscrollID the capture it belongs to (another starts at its top).
	tscroll   detailScroll
	tscrollID int64
}

func newCapturesPane(c *common) capturesPane {
	in := newTextInput(c, "/ ", "text in the message…")
	return capturesPane{c: c, keys: defaultCapturesKeys(), input: in}
}

func (p capturesPane) ID() paneID    { return paneCaptures }
func (p capturesPane) Title() string { return "Captures" }
func (p capturesPane) Typing() bool  { return p.input.Focused() }
func (p capturesPane) Busy() bool    { return p.list.loading || p.countsLoading }

func (p capturesPane) KeyBindings() []key.Binding {
	k := p.keys
	if p.input.Focused() {
		return []key.Binding{k.Apply, k.Leave}
	}
	if p.auditOpen {
		out := []key.Binding{k.CloseAudit}
		total, n := len(p.auditLines(p.width)), p.height-1
		for _, b := range p.auditScroll.bindings(k.list.Down, k.list.Up, total, n) {
			if b.Help().Key == k.list.Up.Help().Key {
				out = append(out, withHelp(k.list.Up, "↑/k", "scroll up"), withHelp(k.list.PageUp, "pgup", "page up"))
			} else {
				out = append(out, withHelp(k.list.Down, "↓/j", "scroll down"), withHelp(k.list.PageDown, "pgdn", "page down"))
			}
		}
		return out
	}
	out := []key.Binding{k.Filter, k.Layer, k.Focus, k.Audit}
	if p.countsFocus && len(p.counts) > 0 {
		out = append(out, k.Pick)
	}
	switch {
	case p.reason != "":
		out = append(out, k.ClearReason)
	case p.text != "":
		out = append(out, k.ClearText)
	case p.countsFocus:
		out = append(out, k.ClosePatterns)
	}
	out = append(out, p.trailScroll().bindings(k.trail.Down, k.trail.Up, len(p.trailLines()), capturesTrailLines)...)
	rows := p.list.total
	if p.countsFocus {
		rows = len(p.counts)
	}
	return append(append(out, k.Reload), listMoves(rows, k.list.bindings()...)...)
}

// trailScroll is the trail's scroll position when it belongs to the
// selected capture, else the top.
func (p capturesPane) trailScroll() detailScroll {
	if c, ok := p.list.selected(); ok && c.ID == p.tscrollID {
		return p.tscroll
	}
	return detailScroll{}
}

// scrollTrail scrolls the selected capture's trail by msg (J/K or the
// wheel); it reports whether msg moved it.
func (p capturesPane) scrollTrail(msg tea.Msg) (capturesPane, bool) {
	c, ok := p.list.selected()
	if !ok {
		return p, false
	}
	s, used := p.trailScroll().update(msg, p.keys.trail, len(p.trailLines()), capturesTrailLines)
	if used {
		p.tscroll, p.tscrollID = s, c.ID
	}
	return p, used
}

// Layout: filter line, header, rows; the patterns table on the right; the
// selected capture's trail under both; a status line.
const capturesTrailLines = 9

func (p capturesPane) SetSize(w, h int) pane {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, p.listWidth()-4))
	p.list.setVisible(p.listRows())
	return p
}

func (p capturesPane) listRows() int {
	return max(1, p.height-3-capturesTrailLines)
}

// capturesWideWidth is the width from which the pattern counts sit beside
// the captures; on a narrower terminal one of the two takes the whole
// width, and f switches between them.
const capturesWideWidth = 110

func (p capturesPane) narrow() bool { return p.width < capturesWideWidth }

func (p capturesPane) countsWidth() int {
	if p.narrow() {
		if p.countsFocus {
			return p.width
		}
		return 0
	}
	return min(40, max(24, p.width/3))
}

func (p capturesPane) listWidth() int {
	if p.narrow() {
		if p.countsFocus {
			return 0
		}
		return p.width
	}
	return max(20, p.width-p.countsWidth()-1)
}

func (p capturesPane) filter() engine.CaptureFilter {
	f := engine.CaptureFilter{Reason: p.reason, Text: p.text}
	switch l := captureLayers()[p.layer]; l {
	case engine.OutcomeHeld, engine.OutcomeStored, engine.OutcomeReinforced:
		f.Outcome = l
	default:
		f.DroppedBy = l
	}
	return f
}

func (p capturesPane) Update(msg tea.Msg) (pane, tea.Cmd) {
	p, cmd := p.update(msg)
	return p, cmd
}

func (p capturesPane) update(msg tea.Msg) (capturesPane, tea.Cmd) {
	switch msg := msg.(type) {
	case restyleMsg:
		p.input.SetStyles(p.c.styles.Input)
		return p, nil
	case startMsg:
		return p.reload()
	case capturesPageMsg:
		if !p.list.accept(msg, "captures", &p.err) {
			return p, nil
		}
		return p.fetchIfNeeded()
	case storeAuditMsg:
		p.auditLoading = false
		if msg.Err != nil {
			p.auditOpen = false
			p.err = "audit: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.audit = msg.Audit
		return p, nil
	case reasonCountsMsg:
		p.countsLoading = false
		if msg.Err != nil {
			p.err = "count patterns: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.counts = msg.Counts
		p.countsCursor = max(0, min(p.countsCursor, len(p.counts)-1))
		return p, nil
	case tea.KeyPressMsg:
		return p.handleKey(msg)
	case tea.MouseWheelMsg:
		if p.auditOpen {
			p.auditScroll, _ = p.auditScroll.update(msg, lineScrollKeys(p.keys.list), len(p.auditLines(p.width)), p.height-1)
			return p, nil
		}
		// The wheel over the trail scrolls it; over the list, the list.
		if msg.Mouse().Y >= 2+p.listRows() {
			p, _ = p.scrollTrail(msg)
			return p, nil
		}
		p.list.wheel(msg)
		return p.fetchIfNeeded()
	case tea.MouseClickMsg:
		if y := msg.Mouse().Y - 2; y >= 0 && y < p.listRows() && msg.Mouse().X < p.listWidth() {
			p.list.moveTo(p.list.top + y)
			return p.fetchIfNeeded()
		}
		return p, nil
	}
	return p, updateFocused(&p.input, msg)
}

func (p capturesPane) handleKey(msg tea.KeyPressMsg) (capturesPane, tea.Cmd) {
	k := p.keys
	if p.input.Focused() {
		if key.Matches(msg, k.Leave) {
			// esc clears the text filter; enter keeps it.
			p.input.Blur()
			p.input.SetValue("")
			if p.text != "" {
				p.text = ""
				return p.refilter()
			}
			return p, nil
		}
		if key.Matches(msg, k.Apply) {
			p.input.Blur()
			return p, nil
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		if v := strings.TrimSpace(p.input.Value()); v != p.text {
			p.text = v
			var fetch tea.Cmd
			p, fetch = p.refilter()
			cmd = tea.Batch(cmd, fetch)
		}
		return p, cmd
	}
	if p.auditOpen {
		switch {
		case key.Matches(msg, k.CloseAudit):
			return p.toggleAudit()
		default:
			p.auditScroll, _ = p.auditScroll.update(msg, lineScrollKeys(k.list), len(p.auditLines(p.width)), p.height-1)
		}
		return p, nil
	}
	if key.Matches(msg, k.Audit) {
		return p.toggleAudit()
	}
	if p, used := p.scrollTrail(msg); used {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.Filter):
		return p, p.input.Focus()
	case key.Matches(msg, k.Layer):
		p.layer = (p.layer + 1) % len(captureLayers())
		return p.refilter()
	case key.Matches(msg, k.Focus):
		p.countsFocus = !p.countsFocus
		return p, nil
	case key.Matches(msg, k.Reload):
		return p.reload()
	case p.countsFocus && key.Matches(msg, k.Pick):
		if p.countsCursor < len(p.counts) {
			rc := p.counts[p.countsCursor]
			p.reason = rc.Reason
			p.layer = layerIndex(rc.Layer)
			p.countsFocus = false
			return p.refilter()
		}
		return p, nil
	case key.Matches(msg, k.ClearReason) && p.reason != "":
		p.reason = ""
		return p.refilter()
	case key.Matches(msg, k.ClearText) && p.text != "":
		p.text = ""
		p.input.SetValue("")
		return p.refilter()
	case key.Matches(msg, k.ClosePatterns) && p.countsFocus:
		p.countsFocus = false
		return p, nil
	}
	if p.countsFocus {
		// The per-pattern table moves like every list (the footer lists
		// the same keys for both).
		if c, ok := listMove(k.list, msg, p.countsCursor, len(p.counts), p.listRows()); ok {
			p.countsCursor = c
		}
		return p, nil
	}
	p.list.navigate(k.list, msg)
	return p.fetchIfNeeded()
}

func layerIndex(layer string) int {
	for i, l := range captureLayers() {
		if l == layer {
			return i
		}
	}
	return 0
}

func (p capturesPane) refilter() (capturesPane, tea.Cmd) {
	p.list.reset()
	return p.fetch(0)
}

func (p capturesPane) reload() (capturesPane, tea.Cmd) {
	off := p.list.off
	if !p.list.loaded {
		off = 0
	}
	p, page := p.fetch(off)
	p.countsLoading = true
	ctx, store := p.c.ctx, p.c.deps.Store
	counts := func() tea.Msg {
		rc, err := store.CaptureReasonCounts(ctx)
		return send(paneCaptures, reasonCountsMsg{Counts: rc, Err: err})
	}
	return p, tea.Batch(page, counts)
}

func (p capturesPane) fetchIfNeeded() (capturesPane, tea.Cmd) {
	off, ok := p.list.need()
	if !ok {
		return p, nil
	}
	return p.fetch(off)
}

func (p capturesPane) fetch(off int) (capturesPane, tea.Cmd) {
	f := p.filter()
	ctx, store := p.c.ctx, p.c.deps.Store
	return p, p.list.fetchCmd(paneCaptures, off, func(limit, offset int) ([]*engine.CaptureRecord, int, error) {
		f.Limit, f.Offset = limit, offset
		return store.FindCaptures(ctx, f)
	})
}
