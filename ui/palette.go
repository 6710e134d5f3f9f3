package ui

// The ":" command palette (k9s style): one input line over the footer,
// completions from the command registry (palette_commands.go) above it,
// errors inline with what to do, and the commands run before on up/down.

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"memtrace/internal/safetext"
)

// paletteKeys are the keys the palette's input takes.
type paletteKeys struct {
	Run, Close, Complete, Back, Older, Newer, Editor key.Binding
}

func defaultPaletteKeys() paletteKeys {
	return paletteKeys{
		Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Back:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous completion")),
		Older:    key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/↓", "history")),
		Newer:    key.NewBinding(key.WithKeys("down", "ctrl+n")),
		Editor:   editorKey(),
	}
}

// bindings are the palette's keys now: history only when there is one.
func (p cmdPalette) bindings() []key.Binding {
	k := p.keys
	out := []key.Binding{k.Run, k.Complete}
	if len(p.history) > 0 {
		out = append(out, k.Older)
	}
	return append(out, k.Editor, k.Close)
}

// cmdPalette is the palette's state; the root owns it.
type cmdPalette struct {
	keys  paletteKeys
	input textinput.Model
	open  bool
	err   string // the last command's error, with what to do

	// history is every command run, oldest first; histPos is the entry
	// shown (len(history): the line being typed, kept in draft).
	history []string
	histPos int
	draft   string

	// Completion: tab cycles through cands, the completions of base (the
	// text typed before the first tab); pick is the one shown, -1 none.
	base  string
	cands []paletteCandidate
	pick  int
}

// paletteCandidate is one completion: the whole input it produces and what
// it does.
type paletteCandidate struct {
	Text, Help string
}

func newCmdPalette(c *common) cmdPalette {
	in := newTextInput(c, ":", "command — tab completes, :help lists them")
	return cmdPalette{keys: defaultPaletteKeys(), input: in, pick: -1}
}

// paletteMaxLines is how many completions the palette lists at most.
const paletteMaxLines = 6

func (m Model) openPalette() (Model, tea.Cmd) {
	m.pal.open = true
	m.pal.err = ""
	m.pal.input.SetValue("")
	m.pal.histPos = len(m.pal.history)
	m.pal.input.SetWidth(max(10, m.width-3))
	m = m.refreshCompletions()
	return m, m.pal.input.Focus()
}

func (m Model) closePalette() Model {
	m.pal.open = false
	m.pal.input.Blur()
	m.pal.cands, m.pal.pick = nil, -1
	return m
}

// paletteKey handles a key while the palette is open: it takes every key
// but ctrl+c.
func (m Model) paletteKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.pal.keys
	switch {
	case key.Matches(msg, k.Close):
		return m.closePalette(), nil
	case key.Matches(msg, k.Run):
		return m.runPaletteLine(m.pal.input.Value())
	case key.Matches(msg, k.Complete), key.Matches(msg, k.Back):
		return m.cycleCompletion(key.Matches(msg, k.Back)), nil
	case key.Matches(msg, k.Older):
		return m.historyStep(-1), nil
	case key.Matches(msg, k.Newer):
		return m.historyStep(+1), nil
	case key.Matches(msg, k.Editor):
		cmd, err := editInEditor(m.pal.input.Value(), editPalette)
		if err != nil {
			m.pal.err = err.Error()
			return m, nil
		}
		return m, cmd
	}
	before := m.pal.input.Value()
	var cmd tea.Cmd
	m.pal.input, cmd = m.pal.input.Update(msg)
	if m.pal.input.Value() != before {
		m.pal.err = ""
		m = m.refreshCompletions()
	}
	return m, cmd
}

// refreshCompletions recomputes the completions of what is typed and ends
// any tab cycle.
func (m Model) refreshCompletions() Model {
	m.pal.base = m.pal.input.Value()
	m.pal.cands = m.completions(m.pal.base)
	m.pal.pick = -1
	return m
}

// cycleCompletion shows the next (or previous) completion in the input.
func (m Model) cycleCompletion(back bool) Model {
	n := len(m.pal.cands)
	if n == 0 {
		m.pal.err = "nothing completes " + quoteCmd(m.pal.base) + ": :help lists the commands"
		return m
	}
	switch {
	case m.pal.pick < 0 && back:
		m.pal.pick = n - 1
	case m.pal.pick < 0:
		m.pal.pick = 0
	case back:
		m.pal.pick = (m.pal.pick + n - 1) % n
	default:
		m.pal.pick = (m.pal.pick + 1) % n
	}
	m.pal.input.SetValue(m.pal.cands[m.pal.pick].Text)
	m.pal.input.CursorEnd()
	if n == 1 {
		// The only completion: typing goes on from it.
		m = m.refreshCompletions()
	}
	return m
}

// historyStep moves through the commands run before; the line being typed
// is kept and comes back past the newest.
func (m Model) historyStep(d int) Model {
	h := &m.pal
	if len(h.history) == 0 {
		return m
	}
	if h.histPos == len(h.history) {
		h.draft = h.input.Value()
	}
	h.histPos = max(0, min(len(h.history), h.histPos+d))
	if h.histPos == len(h.history) {
		h.input.SetValue(h.draft)
	} else {
		h.input.SetValue(h.history[h.histPos])
	}
	h.input.CursorEnd()
	return m.refreshCompletions()
}

// runPaletteLine runs one command line. An error keeps the palette open
// with the line, so it can be fixed.
func (m Model) runPaletteLine(line string) (Model, tea.Cmd) {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), ":"))
	if line == "" {
		return m.closePalette(), nil
	}
	if n := len(m.pal.history); n == 0 || m.pal.history[n-1] != line {
		m.pal.history = append(m.pal.history, line)
	}
	m.pal.histPos = len(m.pal.history)
	next, cmd, err := m.runCommand(line)
	if err != nil {
		m.pal.err = err.Error()
		return m, nil
	}
	return next.closePalette(), cmd
}

// paletteView is the palette's lines: the key hint, an error or the
// completions, and the input. It replaces the footer and the last lines
// of the body.
func (m Model) paletteView() []string {
	st := m.c.styles
	w := m.width
	var out []string
	hint := "tab complete · enter run · esc close · " + m.pal.keys.Editor.Help().Key + " $EDITOR"
	if len(m.pal.history) > 0 {
		hint = "tab complete · ↑/↓ history · enter run · esc close · " + m.pal.keys.Editor.Help().Key + " $EDITOR"
	}
	out = append(out, st.App.Muted.Render(safetext.Truncate(hint, w)))
	if m.pal.err != "" {
		for _, l := range wrapText(safetext.SanitizeLine(m.pal.err), w, 3) {
			out = append(out, st.App.Error.Render(l))
		}
	}
	cands := m.pal.cands
	first := 0
	if m.pal.pick >= paletteMaxLines {
		first = m.pal.pick - paletteMaxLines + 1
	}
	textW := 0
	for _, c := range cands {
		textW = max(textW, safetext.Width(c.Text))
	}
	textW = min(textW, w/2)
	for i := first; i < len(cands) && i < first+paletteMaxLines; i++ {
		c := cands[i]
		row := "  " + safetext.PadRight(safetext.Truncate(safetext.SanitizeLine(c.Text), textW), textW) + "  " + safetext.SanitizeLine(c.Help)
		row = safetext.PadRight(safetext.Truncate(row, w), w)
		if i == m.pal.pick {
			out = append(out, st.Table.Selected.Render(row))
		} else {
			out = append(out, st.Table.Row.Render(row))
		}
	}
	if more := len(cands) - first - paletteMaxLines; more > 0 {
		out = append(out, st.App.Muted.Render(fmt.Sprintf("  … %d more: type to narrow, tab cycles", more)))
	}
	return append(out, m.pal.input.View())
}

// overlayBottom replaces the last lines of body (a block height lines
// high) with lines, so the palette sits over the pane without moving it.
func overlayBottom(body string, height, width int, lines []string) string {
	rows := strings.Split(body, "\n")
	for len(rows) < height {
		rows = append(rows, "")
	}
	keep := max(0, height-len(lines))
	rows = rows[:keep]
	for _, l := range lines[max(0, len(lines)-height):] {
		rows = append(rows, lipgloss.NewStyle().MaxWidth(width).Render(l))
	}
	return strings.Join(rows, "\n")
}

func quoteCmd(s string) string {
	if strings.TrimSpace(s) == "" {
		return "an empty line"
	}
	return fmt.Sprintf("%q", ":"+strings.TrimSpace(s))
}

// paletteEdited puts the text edited in $EDITOR back into the palette.
func (m Model) paletteEdited(msg editedMsg) Model {
	if msg.Target != editPalette {
		return m
	}
	note, ok := editedNotice(msg, 0)
	if !ok {
		m.pal.err = note
		return m
	}
	if !m.pal.open {
		m, _ = m.openPalette()
	}
	m.pal.input.SetValue(strings.TrimPrefix(msg.Text, ":"))
	m.pal.input.CursorEnd()
	m = m.refreshCompletions()
	if msg.Joined {
		m.pal.err = note + " (enter runs it)"
	}
	return m
}
