package ui

// A trace becomes a probe: M marks the survivors of the shown trace right
// or wrong, w appends a golden probe to a set file — the query, the time,
// present for the survivors marked right, absent for those marked wrong —
// so real agent traffic (stored MCP traces too) turns into regression tests.

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

type markKeys struct {
	Right, Wrong, Clear, Write, Leave key.Binding
	Submit, Field, Back               key.Binding
}

func defaultMarkKeys() markKeys {
	return markKeys{
		Right:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "right (present)")),
		Wrong:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "wrong (absent)")),
		Clear:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "unmark")),
		Write:  key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write probe…")),
		Leave:  key.NewBinding(key.WithKeys("esc", "M"), key.WithHelp("esc", "leave marking")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "append probe")),
		Field:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "set ⇄ id")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to marking")),
	}
}

// Marks of a survivor.
const (
	markNone  = 0
	markRight = 1
	markWrong = -1
)

// probeMarks is the marking mode's state.
type probeMarks struct {
	marks       []int // per survivor of the trace
	cursor, top int
	// writing: the dialog that names the set file and the probe id.
	writing bool
	field   int // 0 the set file, 1 the probe id
	setIn   textinput.Model
	idIn    textinput.Model
	saving  bool
}

// probeWrittenMsg is AppendProbe's answer.
type probeWrittenMsg struct {
	ID, Path        string
	Present, Absent int
	Err             error
}

// goldenReloadMsg asks the Golden tab to reload its set when it is Path
// (a probe was appended to it).
type goldenReloadMsg struct {
	Path, Probe string
}

func (p tracePane) markBindings() []key.Binding {
	k := p.keys.marks
	if p.mark.writing {
		return []key.Binding{k.Submit, k.Field, k.Back}
	}
	out := []key.Binding{k.Right, k.Wrong}
	if m := p.mark; m.cursor < len(m.marks) && m.marks[m.cursor] != markNone {
		out = append(out, k.Clear) // unmark: only on a marked survivor
	}
	return append(out, k.Write, k.Leave, p.keys.list.Up, p.keys.list.Down, p.keys.list.Top, p.keys.list.Bottom)
}

// startMarking enters the marking mode on the shown trace's survivors.
func (p tracePane) startMarking() tracePane {
	switch {
	case p.trace == nil:
		p.err = "no trace yet: run a query (/) or open a stored trace (o) first"
		return p
	case p.split:
		p.err = "the split view compares two recalls: s leaves it, then M marks the survivors of one"
		return p
	case len(p.trace.Survivors) == 0:
		p.err = "nothing survived this recall, so there is nothing to mark right or wrong"
		return p
	}
	p.err = ""
	p.itemOpen, p.prompt = false, false
	p.mark = &probeMarks{marks: make([]int, len(p.trace.Survivors))}
	return p
}

func (p tracePane) handleMarkKey(msg tea.KeyPressMsg) (tracePane, tea.Cmd) {
	m := *p.mark
	p.mark = &m
	if m.writing {
		return p.handleProbeDialogKey(msg)
	}
	k, l := p.keys.marks, p.keys.list
	n := len(m.marks)
	switch {
	case key.Matches(msg, k.Leave):
		p.mark = nil
		return p, nil
	case key.Matches(msg, k.Right):
		m.marks = setMark(m.marks, m.cursor, markRight)
		m.cursor = min(n-1, m.cursor+1)
	case key.Matches(msg, k.Wrong):
		m.marks = setMark(m.marks, m.cursor, markWrong)
		m.cursor = min(n-1, m.cursor+1)
	case key.Matches(msg, k.Clear):
		m.marks = setMark(m.marks, m.cursor, markNone)
	case key.Matches(msg, k.Write):
		right, wrong := countMarks(m.marks)
		if right+wrong == 0 {
			p.err = "mark at least one survivor first: y right (present), x wrong (absent)"
			return p, nil
		}
		p.err = ""
		m.writing, m.field = true, 0
		m.setIn = newTextInput(p.c, "set › ", "path/to/set.yaml (a new file starts a set)")
		m.setIn.SetWidth(max(10, p.rightWidth()-8))
		m.setIn.SetValue(p.probeSetPath())
		m.setIn.CursorEnd()
		m.idIn = newTextInput(p.c, "id  › ", "probe id (no spaces)")
		m.idIn.SetWidth(max(10, p.rightWidth()-8))
		m.idIn.SetValue(golden.ProbeID(p.trace.Query))
		return p, m.setIn.Focus()
	case key.Matches(msg, l.Up):
		m.cursor = max(0, m.cursor-1)
	case key.Matches(msg, l.Down):
		m.cursor = min(n-1, m.cursor+1)
	case key.Matches(msg, l.Top):
		m.cursor = 0
	case key.Matches(msg, l.Bottom):
		m.cursor = n - 1
	}
	return p, nil
}

func setMark(marks []int, i, v int) []int {
	out := append([]int(nil), marks...)
	if i >= 0 && i < len(out) {
		out[i] = v
	}
	return out
}

func countMarks(marks []int) (right, wrong int) {
	for _, v := range marks {
		switch v {
		case markRight:
			right++
		case markWrong:
			wrong++
		}
	}
	return right, wrong
}

// probeSetPath is the set file offered for the new probe: the set of the
// probe the trace came from, else the one the Golden tab has open, else
// the project's default.
func (p tracePane) probeSetPath() string {
	switch {
	case p.origin != nil && p.origin.Set != "":
		return p.origin.Set
	case p.c.goldenSet != "":
		return p.c.goldenSet
	}
	return defaultGoldenSet
}

func (p tracePane) handleProbeDialogKey(msg tea.KeyPressMsg) (tracePane, tea.Cmd) {
	m := p.mark
	k := p.keys.marks
	switch {
	case m.saving:
		return p, nil
	case key.Matches(msg, k.Back):
		m.writing = false
		m.setIn.Blur()
		m.idIn.Blur()
		return p, nil
	case key.Matches(msg, k.Field):
		m.field = 1 - m.field
		if m.field == 0 {
			m.idIn.Blur()
			return p, m.setIn.Focus()
		}
		m.setIn.Blur()
		return p, m.idIn.Focus()
	case key.Matches(msg, k.Submit):
		return p.writeProbe()
	}
	var cmd tea.Cmd
	if m.field == 0 {
		m.setIn, cmd = m.setIn.Update(msg)
	} else {
		m.idIn, cmd = m.idIn.Update(msg)
	}
	return p, cmd
}

// survivorSelector picks a survivor as a probe names it: by key (the id of
// the message it came from, stable across database builds) where it has
// one, else by row id.
func survivorSelector(s engine.Survivor) (golden.Selector, error) {
	if s.Key != "" {
		return golden.ParseSelector("key:" + s.Key)
	}
	return golden.ParseSelector("id:" + strconv.FormatInt(s.ID, 10))
}

// writeProbe appends the probe in a Cmd.
func (p tracePane) writeProbe() (tracePane, tea.Cmd) {
	m := p.mark
	path := strings.TrimSpace(m.setIn.Value())
	id := strings.TrimSpace(m.idIn.Value())
	if path == "" {
		p.err = "name the set file to append the probe to"
		return p, nil
	}
	if strings.ContainsFunc(id, func(r rune) bool { return r == ' ' || r == '\t' }) {
		p.err = "a probe id has no spaces: use - between words"
		return p, nil
	}
	tr := p.trace
	np := golden.NewProbe{ID: id, Query: tr.Query, At: tr.At, Session: tr.Session, Project: tr.Project, K: tr.K, Budget: tr.Budget}
	for i, v := range m.marks {
		if v == markNone || i >= len(tr.Survivors) {
			continue
		}
		sel, err := survivorSelector(tr.Survivors[i])
		if err != nil {
			p.err = "survivor " + strconv.Itoa(i+1) + ": " + err.Error()
			return p, nil
		}
		if v == markRight {
			np.Present = append(np.Present, sel)
		} else {
			np.Absent = append(np.Absent, sel)
		}
	}
	m.saving = true
	p.err = ""
	return p, func() tea.Msg {
		got, err := golden.AppendProbe(path, np)
		return send(paneTrace, probeWrittenMsg{ID: got, Path: path, Present: len(np.Present), Absent: len(np.Absent), Err: err})
	}
}

func (p tracePane) probeWritten(msg probeWrittenMsg) (tracePane, tea.Cmd) {
	if p.mark != nil {
		m := *p.mark
		m.saving = false
		p.mark = &m
	}
	if msg.Err != nil {
		p.err = "probe not written: " + engine.ErrorMessage(msg.Err)
		return p, nil
	}
	p.mark = nil
	p.err = ""
	p.notice = fmt.Sprintf("appended probe %s to %s (%d present, %d absent): the Golden tab runs it with r", msg.ID, displayPath(msg.Path), msg.Present, msg.Absent)
	if msg.Absent > 0 {
		p.notice += fmt.Sprintf("; it fails until recall stops returning the %d marked wrong", msg.Absent)
	}
	reload := goldenReloadMsg{Path: msg.Path, Probe: msg.ID}
	return p, func() tea.Msg { return send(paneGolden, reload) }
}

// markView is the marking mode's right column: the survivors with their
// marks, or the dialog that writes the probe.
func (p tracePane) markView(n int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	m := p.mark
	right, wrong := countMarks(m.marks)
	if m.writing {
		return p.probeDialogView(right, wrong)
	}
	head := "mark the survivors: y right (present) · x wrong (absent) · c unmark · w writes the probe · esc leaves"
	out := []string{st.Detail.Heading.Render(safetext.Truncate(head, rw))}
	for _, l := range wrapText(fmt.Sprintf("%d right, %d wrong, %d unmarked — unmarked survivors stay out of the probe; the query %q at %s",
		right, wrong, len(m.marks)-right-wrong, p.trace.Query, p.trace.At.UTC().Format("2006-01-02 15:04 UTC")), rw, 2) {
		out = append(out, st.App.Muted.Render(l))
	}
	cols := textable.Fit([]textable.Column{{Title: "MARK", Width: 7}, {Title: "SELECTOR", Width: 14, Min: 8}, {Title: "TEXT"}}, rw, textable.MinText)
	out = append(out, st.Table.Header.Render(textable.Header(cols)))
	rows := max(1, n-len(out))
	top := max(0, min(m.cursor-rows+1, len(m.marks)-rows))
	if m.cursor < top {
		top = m.cursor
	}
	for i := top; i < len(m.marks) && len(out) < n; i++ {
		s := p.trace.Survivors[i]
		sel, _ := survivorSelector(s)
		mark := ""
		switch m.marks[i] {
		case markRight:
			mark = "✓ right"
		case markWrong:
			mark = "✗ wrong"
		}
		row := textable.Row(cols, []string{mark, sel.String(), s.Text})
		switch {
		case i == m.cursor:
			row = st.Table.Selected.Render(row)
		case m.marks[i] == markRight:
			row = st.Status.Active.Render(row)
		case m.marks[i] == markWrong:
			row = st.Status.Quarantined.Render(row)
		default:
			row = st.Table.Row.Render(row)
		}
		out = append(out, row)
	}
	return out
}

func (p tracePane) probeDialogView(right, wrong int) []string {
	st := p.c.styles
	rw := p.rightWidth()
	m := p.mark
	out := []string{st.Detail.Heading.Render(safetext.Truncate(fmt.Sprintf("append a golden probe: %d present, %d absent", right, wrong), rw)),
		m.setIn.View(), m.idIn.View(), ""}
	var present, absent []string
	for i, v := range m.marks {
		sel, _ := survivorSelector(p.trace.Survivors[i])
		switch v {
		case markRight:
			present = append(present, sel.String())
		case markWrong:
			absent = append(absent, sel.String())
		}
	}
	info := []string{
		"query   " + p.trace.Query,
		"at      " + p.trace.At.UTC().Format("2006-01-02T15:04:05Z07:00"),
	}
	if len(present) > 0 {
		info = append(info, "present "+strings.Join(present, ", "))
	}
	if len(absent) > 0 {
		info = append(info, "absent  "+strings.Join(absent, ", "))
	}
	for _, l := range info {
		for _, w := range wrapText(l, rw, 2) {
			out = append(out, st.Detail.Value.Render(w))
		}
	}
	msg := "enter appends it (the file's text is kept; a missing file starts a set) · tab switches field · esc back"
	if m.saving {
		msg = "writing…"
	}
	out = append(out, "")
	for _, l := range wrapText(msg, rw, 2) {
		out = append(out, st.App.Muted.Render(l))
	}
	return out
}
