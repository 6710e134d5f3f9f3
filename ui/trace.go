package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/inspector"
)

// OpenTraceMsg asks the Trace tab to show the trace of Query: the root
// switches to the Trace tab and the pane runs the recall read-only. Other
// tabs (Golden: a probe's trace) return it from a tea.Cmd. A zero Query.At
// means now.
type OpenTraceMsg struct {
	Query engine.Query
	// Trace, when set, is shown as it is (the recall a probe's run made)
	// instead of recalling Query first; Focus is the stage and item it
	// opens on (nil: the budget, or where the last items died).
	Trace *engine.Trace
	Focus *TraceFocus
	// Fixture, when set, is the database the trace was made on (a golden
	// set's fixture): re-runs and time steps recall from it.
	Fixture *fixtureDB
	// Origin, when set, labels the trace in the header (probe, database,
	// time).
	Origin *TraceOrigin
	// Policies, with Trace (B's recall), opens the split on two policies'
	// recalls instead of two times (trace_split_policy.go).
	Policies *PolicySplit
}

// OpenMemoryMsg asks the Memories tab to show the memory with Key (the
// Trace tab's m on an item): the root switches to it.
type OpenMemoryMsg struct {
	Key string
}

type traceKeys struct {
	list                               listKeys
	Query, Run, Leave, Earlier, Later  key.Binding
	TypeTime, Split, Open, Prompt      key.Binding
	Stages, Items, Rerun, Pick, Cancel key.Binding
	OpenItem, CloseItem, ToMemory      key.Binding
	Mark                               key.Binding
	// CloseSplit and ClosePrompt: esc leaves the split view or the
	// prompt for the items.
	CloseSplit, ClosePrompt key.Binding
	marks                   markKeys
	splitScroll             scrollKeys // the split view's J/K and pgup/pgdn
}

func defaultTraceKeys() traceKeys {
	return traceKeys{
		list:        defaultListKeys(),
		Query:       key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/ i", "query")),
		Run:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Leave:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave input")),
		Earlier:     key.NewBinding(key.WithKeys("["), key.WithHelp("[", "earlier")),
		Later:       key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "later")),
		TypeTime:    key.NewBinding(key.WithKeys("@"), key.WithHelp("@", "type a time")),
		Split:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "now vs +N")),
		Open:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "stored traces")),
		Prompt:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "prompt ⇄ items")),
		Stages:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "stages")),
		Items:       key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "items")),
		Rerun:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "re-run")),
		Pick:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open trace")),
		Cancel:      key.NewBinding(key.WithKeys("esc", "o"), key.WithHelp("esc", "close")),
		OpenItem:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open item")),
		CloseItem:   key.NewBinding(key.WithKeys("esc", "enter"), key.WithHelp("esc", "close item")),
		ToMemory:    key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "show in Memories")),
		Mark:        key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "mark survivors → probe")),
		CloseSplit:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close split")),
		ClosePrompt: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close prompt")),
		marks:       defaultMarkKeys(),
		splitScroll: scrollKeys{
			Down:     key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "scroll split down")),
			Up:       key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "scroll split up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "split page down")),
			PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "split page up")),
		},
	}
}

type (
	// traceResultMsg is the reply to recall request Seq: the trace at the
	// override and, in the split view, its comparison with now (whose B
	// side is Trace).
	traceResultMsg struct {
		Seq   int
		Trace *engine.Trace
		Cmp   *inspector.Comparison
		Err   error
	}
	storedTracesMsg struct {
		Traces []*engine.StoredTrace
		Err    error
	}
)

// traceFocus is the column the arrow keys move in.
type traceFocus int

const (
	focusStages traceFocus = iota
	focusItems
)

// storedTraceLimit is how many stored traces `o` lists (the store keeps
// only the newest anyway).
const storedTraceLimit = 100

// tracePane is the Trace tab: a read-only recall of a query, stage by
// stage, at a time override, optionally next to the same recall now.
type tracePane struct {
	c        *common
	keys     traceKeys
	query    textinput.Model
	atInput  textinput.Model
	override timeOverride

	// q is the query template: text, session, project, k and budget; At is
	// set from override on every run.
	q      engine.Query
	trace  *engine.Trace
	cmp    *inspector.Comparison // the split view: now (A) vs the override (B)
	pol    *PolicySplit          // the split compares two policies, not two times
	source string                // where the shown trace came from, when not a live run
	// origin labels a trace opened from a golden probe; fx is the fixture
	// database it recalls from (nil: the open database).
	origin *TraceOrigin
	fx     *fixtureDB
	// mark is the "trace to probe" mode: survivors marked right or wrong,
	// then written as a golden probe (trace_probe.go).
	mark  *probeMarks
	split bool
	// splitScroll is the split view's scroll (it is taller than 80×24).
	splitScroll detailScroll
	prompt      bool // the right column shows the prompt instead of the items
	focus       traceFocus
	stage       int
	item        int
	itemTop     int
	// itemOpen shows the selected item whole; openScroll is its scroll.
	itemOpen   bool
	openScroll detailScroll
	// promptScroll is the prompt view's scroll.
	promptScroll detailScroll

	seq     int
	loading bool

	picker tracePicker // the stored traces (o)

	width, height int
	err           string
	// notice is a one-time message on the status line (a probe written).
	notice string
}

func newTracePane(c *common) tracePane {
	q := newTextInput(c, "query › ", "what would the agent recall? e.g. 충주 사과")
	at := newTextInput(c, "at › ", "+45d, -2h, +1w, 2027-01-01 or 2027-01-01T09:00:00Z")
	k := defaultTraceKeys()
	return tracePane{c: c, keys: k, query: q, atInput: at, stage: len(engine.StageNames) - 1, picker: newTracePicker(c, k)}
}

func (p tracePane) ID() paneID    { return paneTrace }
func (p tracePane) Title() string { return "Trace" }
func (p tracePane) Typing() bool {
	return p.query.Focused() || p.atInput.Focused() || (p.mark != nil && p.mark.writing)
}
func (p tracePane) Busy() bool { return p.loading || p.picker.loading }

func (p tracePane) KeyBindings() []key.Binding {
	k := p.keys
	switch {
	case p.query.Focused():
		return []key.Binding{k.Run, k.Leave, editorKey()}
	case p.atInput.Focused():
		return []key.Binding{withHelp(k.Run, "enter", "set time"), k.Leave}
	case p.picker.open:
		return p.picker.keyBindings()
	case p.mark != nil:
		return p.markBindings()
	case p.itemOpen && p.trace != nil:
		out := []key.Binding{k.CloseItem}
		if items := p.stageItems(); p.item < len(items) && items[p.item].Key != "" {
			out = append(out, k.ToMemory)
		}
		if overflows(len(p.openItemBody()), p.bodyRows()-1) {
			out = append(out, withHelp(k.list.Up, "↑/k", "scroll up"), withHelp(k.list.Down, "↓/j", "scroll down"))
		}
		return out
	}
	if p.trace == nil {
		// Nothing to move in or show yet: the keys that make a trace.
		return []key.Binding{k.Query, k.Earlier, k.Later, k.TypeTime, k.Open, k.Rerun}
	}
	var out []key.Binding
	if p.focus == focusItems && !p.split && !p.prompt {
		out = append(out, k.OpenItem)
	}
	out = append(out, k.Query, k.Earlier, k.Later, k.TypeTime, k.Split, k.Open)
	switch {
	case p.split:
		out = append(out, k.CloseSplit)
	case p.prompt:
		out = append(out, k.ClosePrompt)
	}
	if !p.split {
		// The split view takes the right column: p would show nothing.
		out = append(out, k.Prompt)
		if p.trace != nil {
			out = append(out, k.Mark)
		}
	}
	// The key to the other column (the focused one's key does nothing).
	if p.focus == focusItems {
		out = append(out, k.Stages)
	} else {
		out = append(out, k.Items)
	}
	moves := []key.Binding{k.list.Up, k.list.Down, k.list.PageUp, k.list.PageDown, k.list.Top, k.list.Bottom}
	if p.split {
		// pgup/pgdn scroll the split (listed only while it overflows).
		moves = []key.Binding{k.list.Up, k.list.Down, k.list.Top, k.list.Bottom}
		out = append(out, p.splitScrollBindings()...)
	}
	if p.prompt && p.focus == focusItems {
		// The moves scroll the prompt: only when it is longer than the view.
		if !overflows(len(p.promptLines()), p.bodyRows()-1) {
			moves = nil
		} else {
			moves = moves[:5] // G does not scroll the prompt
		}
	}
	return append(append(out, moves...), k.Rerun)
}

// withHelp is b with other help text (the same key doing another thing in
// another mode).
func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

func (p tracePane) SetSize(w, h int) pane {
	p.width, p.height = w, h
	p.query.SetWidth(max(10, w-len(p.query.Prompt)-2))
	p.atInput.SetWidth(max(10, w-len(p.atInput.Prompt)-2))
	return p.clampItems()
}

func (p tracePane) Update(msg tea.Msg) (pane, tea.Cmd) {
	p, cmd := p.update(msg)
	return p, cmd
}

func (p tracePane) update(msg tea.Msg) (tracePane, tea.Cmd) {
	switch msg := msg.(type) {
	case restyleMsg:
		p.query.SetStyles(p.c.styles.Input)
		p.atInput.SetStyles(p.c.styles.Input)
		return p, nil
	case startMsg:
		return p, nil
	case OpenTraceMsg:
		p.q = msg.Query
		p.query.SetValue(msg.Query.Text)
		p.override = timeOverride{}
		if !msg.Query.At.IsZero() {
			p.override = overrideAt(msg.Query.At, p.c.now())
		}
		p.origin, p.fx, p.source, p.mark, p.picker.open, p.pol = msg.Origin, msg.Fixture, "", nil, false, nil
		if msg.Trace != nil && msg.Policies != nil {
			return p.openGiven(msg.Trace, msg.Focus).openPolicySplit(msg.Policies), nil
		}
		if msg.Trace != nil {
			return p.openGiven(msg.Trace, msg.Focus), nil
		}
		return p.run()
	case probeWrittenMsg:
		return p.probeWritten(msg)
	case traceResultMsg:
		if msg.Seq != p.seq {
			return p, nil // an older request finished after a newer one started
		}
		p.loading = false
		if msg.Err != nil {
			p.err = "recall: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		p.err = ""
		p.trace, p.cmp, p.source, p.pol = msg.Trace, msg.Cmp, "", nil
		p.splitScroll = detailScroll{} // another comparison starts at its top
		p.itemOpen, p.mark = false, nil
		if p.trace != nil && len(p.trace.Survivors) == 0 {
			// Nothing survived: open on the stage where the last items
			// died, not on an empty budget.
			p.stage, p.item, p.itemTop = lastDropStage(p.trace, p.stage), 0, 0
		}
		return p.clampItems(), nil
	case editedMsg:
		return p.edited(msg)
	case storedTracesMsg:
		p.picker = p.picker.loaded(msg)
		if msg.Err != nil {
			p.err = "stored traces: " + engine.ErrorMessage(msg.Err)
		}
		return p, nil
	case tea.KeyPressMsg:
		return p.handleKey(msg)
	case tea.MouseWheelMsg:
		switch {
		case p.itemOpen && p.trace != nil && p.mark == nil && !p.picker.open:
			p.openScroll, _ = p.openScroll.update(msg, lineScrollKeys(p.keys.list), len(p.openItemBody()), p.bodyRows()-1)
			return p, nil
		case p.prompt && !p.split && p.trace != nil && p.mark == nil && !p.picker.open:
			p.promptScroll, _ = p.promptScroll.update(msg, lineScrollKeys(p.keys.list), len(p.promptLines()), p.bodyRows()-1)
			return p, nil
		}
		if p.split && p.mark == nil && !p.itemOpen && !p.picker.open {
			p.splitScroll, _ = p.splitScroll.update(msg, p.keys.splitScroll, len(p.splitView()), p.bodyRows())
			return p, nil
		}
		if p.mark != nil && !p.mark.writing {
			// The wheel moves the marking cursor over the survivors.
			m := *p.mark
			if msg.Mouse().Button == tea.MouseWheelUp {
				m.cursor = max(0, m.cursor-1)
			} else if msg.Mouse().Button == tea.MouseWheelDown {
				m.cursor = min(len(m.marks)-1, m.cursor+1)
			}
			p.mark = &m
			return p, nil
		}
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			p.item = max(0, p.item-3)
		case tea.MouseWheelDown:
			p.item += 3
		}
		p.focus = focusItems
		return p.clampItems(), nil
	case tea.MouseClickMsg:
		if y := msg.Mouse().Y - p.headerLines() - 1; !p.stagesFolded() && msg.Mouse().X < traceStagesWidth && y >= 0 && y < len(engine.StageNames) {
			p.stage, p.item, p.itemTop, p.focus = y, 0, 0, focusStages
		}
		return p, nil
	}
	var cmd tea.Cmd
	switch {
	case p.query.Focused():
		p.query, cmd = p.query.Update(msg)
	case p.atInput.Focused():
		p.atInput, cmd = p.atInput.Update(msg)
	}
	return p, cmd
}
