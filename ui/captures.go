package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/engine/safetext"
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
}

func defaultCapturesKeys() capturesKeys {
	return capturesKeys{
		list:        defaultListKeys(),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter text")),
		Apply:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		Leave:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Layer:       key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "cycle layer")),
		Focus:       key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "captures ⇄ patterns")),
		Pick:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "filter by pattern")),
		ClearReason: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear pattern")),
		ClearText:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear text filter")),
		Reload:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reload")),
		Audit:       key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "store audit")),
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
	audit        *engine.StoreAudit
	auditOpen    bool
	auditLoading bool
	auditTop     int
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
	out := []key.Binding{k.Filter, k.Layer, k.Focus}
	if p.countsFocus {
		out = append(out, k.Pick)
	}
	switch {
	case p.reason != "":
		out = append(out, k.ClearReason)
	case p.text != "":
		out = append(out, k.ClearText)
	}
	return append(append(out, k.Reload), k.list.bindings()...)
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
	if key.Matches(msg, k.Audit) {
		return p.toggleAudit()
	}
	if p.auditOpen {
		switch {
		case key.Matches(msg, k.list.Up):
			p.auditTop = max(0, p.auditTop-1)
		case key.Matches(msg, k.list.Down):
			p.auditTop = min(p.auditTop+1, max(0, len(p.auditLines(p.width))-1))
		}
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
	}
	if p.countsFocus {
		switch {
		case key.Matches(msg, k.list.Up):
			p.countsCursor = max(0, p.countsCursor-1)
		case key.Matches(msg, k.list.Down):
			p.countsCursor = max(0, min(len(p.counts)-1, p.countsCursor+1))
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
	if p.c.deps.Store == nil {
		return p, page
	}
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
	if p.c.deps.Store == nil {
		p.err = "no store: open the UI on a database"
		return p, nil
	}
	f := p.filter()
	ctx, store := p.c.ctx, p.c.deps.Store
	return p, p.list.fetchCmd(paneCaptures, off, func(limit, offset int) ([]*engine.CaptureRecord, int, error) {
		f.Limit, f.Offset = limit, offset
		return store.FindCaptures(ctx, f)
	})
}

// captureReason is what the reason column shows: for a held capture the
// judge's validation failure from the trail (the record's reason is the
// constant needs_review, so the counts group them), else the reason.
func captureReason(c *engine.CaptureRecord) string {
	if c.Outcome == engine.OutcomeHeld {
		for _, d := range c.Trail {
			if d.Layer == engine.LayerJudge && d.Verdict == "hold" {
				return d.Reason
			}
		}
	}
	return c.Reason
}

// captureLayer is what the layer column shows: the layer that dropped the
// message, or the outcome.
func captureLayer(c *engine.CaptureRecord) string {
	if c.DroppedBy != "" {
		return c.DroppedBy
	}
	return c.Outcome
}

func (p capturesPane) View() string {
	st := p.c.styles
	if p.auditOpen {
		lines := p.auditView(p.height - 1)
		return strings.Join(append(lines, p.statusLine()), "\n")
	}
	lw, cw := p.listWidth(), p.countsWidth()
	// REASON gives way on a narrow terminal so that TEXT keeps 8 cells and
	// the row fits beside the pattern counts.
	const fixed, minText = 6 + 1 + 11 + 1 + 10 + 1 + 1, 8
	cols := layoutColumns([]column{
		{Title: "ID", Width: 6, Right: true},
		{Title: "AT", Width: 11},
		{Title: "LAYER", Width: 10},
		{Title: "REASON", Width: max(6, min(18, lw-fixed-minText))},
		{Title: "TEXT"},
	}, lw, minText)

	var left []string
	if p.input.Focused() || p.input.Value() != "" {
		left = append(left, p.input.View())
	} else {
		left = append(left, st.Filter.Label.Render(safetext.Truncate(p.filterSummary(), lw)))
	}
	left = append(left, st.Table.Header.Render(tableHeader(cols)))
	for i := p.list.top; i < p.list.top+p.list.visible; i++ {
		if i >= p.list.total {
			left = append(left, strings.Repeat(" ", lw))
			continue
		}
		c, ok := p.list.row(i)
		if !ok {
			left = append(left, st.Table.Muted.Render(tableRow(cols, []string{fmt.Sprint(i + 1), "loading…"})))
			continue
		}
		row := tableRow(cols, []string{fmt.Sprint(c.ID), c.At.UTC().Format("01-02 15:04"), captureLayer(c), captureReason(c), c.Text})
		if i == p.list.cursor && !p.countsFocus {
			left = append(left, st.Table.Selected.Render(row))
		} else {
			left = append(left, st.Table.Row.Render(row))
		}
	}

	var lines []string
	switch {
	case lw == 0:
		lines = p.countsView(cw, len(left))
	case cw == 0:
		lines = left
	default:
		right := p.countsView(cw, len(left))
		lines = make([]string, len(left))
		for i := range left {
			lines[i] = left[i] + " " + right[i]
		}
	}
	lines = append(lines, p.trailView()...)
	lines = append(lines, p.statusLine())
	return strings.Join(lines, "\n")
}

func (p capturesPane) filterSummary() string {
	layer := captureLayers()[p.layer]
	if layer == "" {
		layer = "all"
	}
	s := "layer: " + layer + " (l)"
	if p.reason != "" {
		s += " · pattern: " + safetext.SanitizeLine(p.reason) + " (esc clears)"
	}
	if p.text != "" {
		s += " · text: " + safetext.SanitizeLine(p.text)
	}
	s += " · / text"
	if p.narrow() {
		s += " · f pattern counts"
	}
	return s
}

// countsView is the side table: how many captures each layer dropped for
// each pattern, like the seed's "HEARTBEAT n, \"I don't have access\" n".
func (p capturesPane) countsView(w, n int) []string {
	st := p.c.styles
	cols := layoutColumns([]column{{Title: "LAYER", Width: 6}, {Title: "N", Width: 6, Right: true}, {Title: "PATTERN"}}, w, 6)
	out := []string{st.Detail.Heading.Render(safetext.PadRight("dropped, per pattern", w)), st.Table.Header.Render(tableHeader(cols))}
	rows := n - len(out)
	start := max(0, min(p.countsCursor-rows+1, len(p.counts)-rows))
	for i := start; i < len(p.counts) && len(out) < n; i++ {
		rc := p.counts[i]
		row := tableRow(cols, []string{rc.Layer, fmt.Sprint(rc.Count), rc.Reason})
		switch {
		case p.countsFocus && i == p.countsCursor:
			row = st.Table.Selected.Render(row)
		case rc.Reason == p.reason && p.reason != "":
			row = st.Filter.Chip.Render(row)
		}
		out = append(out, row)
	}
	if len(p.counts) == 0 && len(out) < n {
		msg := "no drops yet"
		if p.countsLoading {
			msg = "counting…"
		}
		out = append(out, st.App.Muted.Render(safetext.PadRight(msg, w)))
	}
	for len(out) < n {
		out = append(out, strings.Repeat(" ", w))
	}
	return out
}

// trailView is the selected capture's full decision trail.
func (p capturesPane) trailView() []string {
	st := p.c.styles
	c, ok := p.list.selected()
	if !ok {
		return fill([]string{st.Detail.Heading.Render("decision trail")}, capturesTrailLines)
	}
	head := fmt.Sprintf("── capture %d · %s · %s/%s", c.ID, c.Outcome, c.Session, c.Role)
	if c.MemoryID != 0 {
		head += fmt.Sprintf(" · memory %d", c.MemoryID)
	}
	lines := []string{st.Detail.Heading.Render(safetext.Truncate(safetext.SanitizeLine(head), p.width))}
	for _, l := range wrapText(c.Text, max(10, p.width-2), 2) {
		lines = append(lines, "  "+l)
	}
	cols := layoutColumns([]column{{Title: "LAYER", Width: 10}, {Title: "VERDICT", Width: 10}, {Title: "PATTERN", Width: 20}, {Title: "REASON"}}, p.width, 10)
	lines = append(lines, st.Table.Header.Render(tableHeader(cols)))
	for _, d := range c.Trail {
		lines = append(lines, tableRow(cols, []string{d.Layer, d.Verdict, d.Pattern, d.Reason}))
	}
	return fill(lines, capturesTrailLines)
}

func (p capturesPane) statusLine() string {
	st := p.c.styles
	if p.err != "" {
		return st.App.Error.Render(safetext.Truncate(safetext.SanitizeLine(p.err), p.width))
	}
	switch {
	case !p.list.loaded:
		return st.App.Status.Render("loading…")
	case p.list.total == 0:
		return st.App.Status.Render("no captures match")
	}
	return st.App.Status.Render(fmt.Sprintf("%d of %d captures", p.list.cursor+1, p.list.total))
}
