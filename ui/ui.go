// Package ui is memtrace's terminal UI: one root model that routes keys,
// mouse and async results to one pane per tab (Trace, Golden, Curate,
// Memories, Captures).
//
// Nothing in Update does I/O: every read and write runs in a tea.Cmd whose
// result comes back in an envelope naming the pane. Memory text is untrusted
// and goes through internal/safetext before it is drawn.
package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"memtrace/internal/safetext"
)

// Model is the root model.
type Model struct {
	c        *common
	keys     KeyMap
	help     help.Model
	spin     spinner.Model
	spinning bool
	isDark   bool

	panes  []pane
	active int

	width, height int
	showHelp      bool
	helpO         helpOverlay // the ? overlay's filter and scroll
	helpOKeys     helpOverlayKeys

	// pal is the ":" command palette; notice a one-line message (a copy's
	// result) the footer of tab noticeTab shows until the next key or
	// until it expires (status.go).
	pal       cmdPalette
	notice    string
	noticeErr bool
	noticeTab int

	// statusW and noticeW: the status messages the root saw and the
	// expiries that may clear them.
	statusW [maxPanes]statusWatch
	noticeW statusWatch
}

// newModel builds the UI on deps; ctx is the context of every task it
// starts (the program's).
func newModel(ctx context.Context, deps Deps) Model {
	styles := NewStyles(true, deps.NoColor)
	c := &common{ctx: ctx, deps: deps, styles: &styles, res: &resources{}}
	m := Model{
		c:         c,
		keys:      DefaultKeyMap(),
		help:      help.New(),
		spin:      spinner.New(spinner.WithSpinner(spinner.Dot)),
		isDark:    true,
		panes:     newPanes(c),
		width:     80,
		height:    24,
		pal:       newCmdPalette(c),
		helpOKeys: defaultHelpOverlayKeys(),
	}
	m.applyStyles()
	m.resize()
	return m
}

// Close closes what the tabs opened for the program's lifetime (the
// fixture databases of Golden runs, with their temporary directories).
func (m Model) Close() error { return m.c.res.closeAll() }

// Init asks for the background colour and starts every pane's first load
// (Init cannot change the model, so the load starts on startMsg).
func (m Model) Init() tea.Cmd {
	start := func() tea.Msg { return startMsg{} }
	return tea.Batch(tea.RequestBackgroundColor, start, waitChanges(m.c.ctx, m.c.deps.Changes))
}

// Update routes: window size to every pane, async envelopes to the pane they
// name, keys global → help overlay → active pane, mouse on the tab bar to the
// root and below it to the active pane.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		*m.c.styles = NewStyles(m.isDark, m.c.deps.NoColor)
		m.applyStyles()
	case spinner.TickMsg:
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case startMsg:
		cmds := make([]tea.Cmd, len(m.panes))
		for i, p := range m.panes {
			m.panes[i], cmds[i] = p.Update(msg)
		}
		cmd = tea.Batch(cmds...)
	case paneMsg:
		for i, p := range m.panes {
			if p.ID() == msg.To {
				m.panes[i], cmd = p.Update(msg.Msg)
			}
		}
	case storeChangedMsg:
		cmds := make([]tea.Cmd, 0, len(m.panes))
		for i, p := range m.panes {
			if p.ID() != msg.From {
				var c tea.Cmd
				m.panes[i], c = p.Update(msg)
				cmds = append(cmds, c)
			}
		}
		cmd = tea.Batch(cmds...)
	case externalChangeMsg:
		// Another process wrote (Deps.Changes): every tab reloads; then
		// wait for the next change.
		mm, c := m.Update(storeChangedMsg{})
		return mm, tea.Batch(c, waitChanges(m.c.ctx, m.c.deps.Changes))
	case OpenTraceMsg:
		// Another tab (Golden) asks to inspect a query: show the Trace tab.
		for i, p := range m.panes {
			if p.ID() == paneTrace {
				m.active = i
				m.panes[i], cmd = p.Update(msg)
			}
		}
	case OpenMemoryMsg:
		// The Trace tab asks to show a memory: switch to Memories.
		for i, p := range m.panes {
			if p.ID() == paneMemories {
				m.active = i
				m.panes[i], cmd = p.Update(msg)
			}
		}
	case copiedMsg:
		m, cmd = m.copied(msg)
	case noticeMsg:
		m.setNotice(msg.Text, msg.Err)
	case statusExpiredMsg:
		m = m.expire(msg)
	case editedMsg:
		// Only the palette's edits come unwrapped (the panes' come in a
		// paneMsg).
		m = m.paletteEdited(msg)
	case tea.KeyPressMsg:
		m.notice, m.noticeErr = "", false
		m, cmd = m.handleKey(msg)
	case tea.MouseClickMsg:
		mouse := msg.Mouse()
		if mouse.Y == 0 {
			if i, ok := m.tabAt(mouse.X); ok && mouse.Button == tea.MouseLeft {
				m.active = i
			}
			break
		}
		mouse.Y--
		cmd = m.updateActive(tea.MouseClickMsg(mouse))
	case tea.MouseWheelMsg:
		if m.showHelp {
			// The ? overlay covers the pane: the wheel scrolls it.
			m.helpO.scroll, _ = m.helpO.scroll.update(msg, defaultScrollKeys(), len(m.helpLines()), helpRoom(m.height-chromeLines))
			break
		}
		mouse := msg.Mouse()
		mouse.Y--
		cmd = m.updateActive(tea.MouseWheelMsg(mouse))
	default:
		// Blink, paste and anything a bubble sends itself go to the
		// palette or the pane that has the focus.
		if m.pal.open {
			m.pal.input, cmd = m.pal.input.Update(msg)
			break
		}
		cmd = m.updateActive(msg)
	}
	return m, tea.Batch(cmd, m.startSpinner(), m.watchStatuses())
}

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		return m, tea.Quit
	}
	if m.showHelp {
		return m.helpKey(msg)
	}
	if m.pal.open {
		return m.paletteKey(msg)
	}
	if p, ok := m.activePane(); ok && p.Typing() {
		return m, m.updateActive(msg)
	}
	for _, t := range m.activeCopyTargets() {
		if key.Matches(msg, t.Binding) {
			return m, copyCmd(t)
		}
	}
	switch {
	case key.Matches(msg, m.keys.Palette):
		return m.openPalette()
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.showHelp = true
		return m, nil
	case key.Matches(msg, m.keys.NextTab) && len(m.panes) > 0:
		m.active = (m.active + 1) % len(m.panes)
		return m, nil
	case key.Matches(msg, m.keys.PrevTab) && len(m.panes) > 0:
		m.active = (m.active + len(m.panes) - 1) % len(m.panes)
		return m, nil
	}
	for i, b := range m.keys.tabKeys() {
		if key.Matches(msg, b) && i < len(m.panes) {
			m.active = i
			return m, nil
		}
	}
	return m, m.updateActive(msg)
}

func (m *Model) updateActive(msg tea.Msg) tea.Cmd {
	if _, ok := m.activePane(); !ok {
		return nil
	}
	var cmd tea.Cmd
	m.panes[m.active], cmd = m.panes[m.active].Update(msg)
	return cmd
}

func (m Model) activePane() (pane, bool) {
	if m.active < 0 || m.active >= len(m.panes) {
		return nil, false
	}
	return m.panes[m.active], true
}

func (m Model) busy() bool {
	for _, p := range m.panes {
		if p.Busy() {
			return true
		}
	}
	return false
}

// startSpinner starts the spinner's ticks when a task is running and it is
// not spinning yet; the ticks stop by themselves once nothing is busy.
func (m *Model) startSpinner() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// The root draws one line of tabs at the top and one line of footer at the
// bottom; panes get the rest.
const chromeLines = 2

func (m *Model) resize() {
	m.help.SetWidth(m.width)
	for i, p := range m.panes {
		m.panes[i] = p.SetSize(m.width, max(1, m.height-chromeLines))
	}
}

type restyleMsg struct{}

func (m *Model) applyStyles() {
	m.help.Styles = m.c.styles.Help
	m.spin.Style = m.c.styles.Spinner
	for i, p := range m.panes {
		m.panes[i], _ = p.Update(restyleMsg{})
	}
}

// tabLabel is the text of tab i, without styling.
func (m Model) tabLabel(i int) string {
	return safetext.SanitizeLine(strings.TrimSpace(string(rune('1'+i)) + " " + m.panes[i].Title()))
}

// tabSpans returns the cell columns [from, to) of each tab, for mouse hits.
// It measures the same strings View draws.
func (m Model) tabSpans() [][2]int {
	st := m.c.styles.Tabs
	spans := make([][2]int, len(m.panes))
	x := 0
	for i := range m.panes {
		style := st.Inactive
		if i == m.active {
			style = st.Active
		}
		w := lipgloss.Width(style.Render(m.tabLabel(i)))
		spans[i] = [2]int{x, x + w}
		x += w + 1
	}
	return spans
}

func (m Model) tabAt(x int) (int, bool) {
	for i, s := range m.tabSpans() {
		if x >= s[0] && x < s[1] {
			return i, true
		}
	}
	return 0, false
}

// helpKeys are the footer's keys: while the ? overlay shows, only what
// closes it (every other key is ignored then).
func (m Model) helpKeys() helpKeys {
	if m.showHelp {
		return helpKeys{global: m.keys, pane: m.helpOverlayBindings(), typing: true}
	}
	return m.activeKeys()
}

// activeKeys are the keys of the palette or the active pane and the global
// ones: the ? overlay lists them.
func (m Model) activeKeys() helpKeys {
	h := helpKeys{global: m.keys}
	if m.pal.open {
		h.pane, h.typing = m.pal.bindings(), true
		return h
	}
	if p, ok := m.activePane(); ok {
		h.pane = p.KeyBindings()
		for _, t := range m.activeCopyTargets() {
			h.pane = append(h.pane, t.Binding)
		}
		// In an input or a dialog ? and q are text or answers: the
		// footer offers only what the input does.
		h.typing = p.Typing()
	}
	return h
}

// View draws the tab bar, the active pane (or the help overlay) and the
// footer.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "memtrace"
	return v
}

// minWidth and minHeight are the smallest terminal every tab is laid out
// for; below it the frame says so instead of drawing cut-off panes.
const minWidth, minHeight = 80, 24

// tooSmall is the frame shown below minWidth×minHeight.
func (m Model) tooSmall() string {
	st := m.c.styles
	msg := fmt.Sprintf("terminal too small: %d×%d, need %d×%d", m.width, m.height, minWidth, minHeight)
	lines := wrapText(msg+" — enlarge the window, or q to quit", max(10, m.width), 0)
	for i, l := range lines {
		lines[i] = st.App.Error.Render(l)
	}
	body := strings.Join(lines, "\n")
	return lipgloss.NewStyle().Width(m.width).Height(max(1, m.height)).MaxHeight(max(1, m.height)).MaxWidth(max(1, m.width)).Render(clipLines(body, max(1, m.width)))
}

func (m Model) render() string {
	st := m.c.styles
	if m.width < minWidth || m.height < minHeight {
		return m.tooSmall()
	}
	var tabs []string
	for i := range m.panes {
		style := st.Tabs.Inactive
		if i == m.active {
			style = st.Tabs.Active
		}
		tabs = append(tabs, style.Render(m.tabLabel(i)))
	}
	bar := strings.Join(tabs, st.Tabs.Gap.Render(" "))
	if m.busy() {
		right := m.spin.View() + " " + st.App.Muted.Render("working")
		if gap := m.width - lipgloss.Width(bar) - lipgloss.Width(right); gap > 0 {
			bar += strings.Repeat(" ", gap) + right
		}
	}

	bodyHeight := max(1, m.height-chromeLines)
	var body string
	if p, ok := m.activePane(); ok {
		body = p.View()
	} else {
		body = st.App.Muted.Render("No tabs to show.")
	}
	if m.showHelp {
		// The box is the keys inside the overlay's frame: no wider than
		// the terminal, or Place would widen every line and the root
		// would cut the box's right side; every line is cut to the
		// inside of the frame, so the border stays on screen.
		inner := max(20, m.width-st.Overlay.GetHorizontalFrameSize())
		box := st.Overlay.Render(clipLines(m.helpView(bodyHeight), inner))
		body = lipgloss.Place(m.width, bodyHeight, lipgloss.Center, lipgloss.Center, box)
	}
	body = lipgloss.NewStyle().Width(m.width).Height(bodyHeight).MaxHeight(bodyHeight).MaxWidth(m.width).Render(clipLines(body, m.width))

	// The help bubble drops items that do not fit, but measures its
	// separators loosely; never let the footer widen the frame.
	footer := safetext.Truncate(m.help.View(m.helpKeys()), m.width)
	switch {
	case m.pal.open:
		lines := m.paletteView()
		footer = lines[len(lines)-1]
		body = overlayBottom(body, bodyHeight, m.width, lines[:len(lines)-1])
	case m.noticeShown() != "":
		style := st.App.Status
		if m.noticeErr {
			style = st.App.Error
		}
		footer = style.Render(safetext.Truncate(safetext.SanitizeLine(m.noticeShown()), m.width))
	}
	return lipgloss.JoinVertical(lipgloss.Left, bar, body, footer)
}

// clipLines cuts every line of s to w cells. The body's style would wrap a
// line that is too wide, and the wrapped part would push the pane's last
// lines (its status) off the screen; a cut loses only the line's end.
func clipLines(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			lines[i] = safetext.Truncate(l, w)
		}
	}
	return strings.Join(lines, "\n")
}
