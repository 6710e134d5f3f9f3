package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/internal/safetext"
)

// helpOverlay is the state of the ? overlay: one line per key of the mode
// (the pane's, then the global ones), filtered by what was typed after /,
// scrolled with J/K (j/k, the arrows) and pgup/pgdn when they do not fit.
type helpOverlay struct {
	scroll detailScroll
	filter string
	typing bool // / was pressed: letters go to the filter until enter or esc
}

// helpOverlayKeys are the overlay's own keys.
type helpOverlayKeys struct {
	Down, Up, PageDown, PageUp, Filter key.Binding
}

func defaultHelpOverlayKeys() helpOverlayKeys {
	return helpOverlayKeys{
		Down:     key.NewBinding(key.WithKeys("J", "j", "down"), key.WithHelp("J/↓", "scroll down")),
		Up:       key.NewBinding(key.WithKeys("K", "k", "up"), key.WithHelp("K/↑", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter keys")),
	}
}

// helpLines are the overlay's lines: every key of the mode with what it
// does, those the filter keeps; what a key does wraps whole at word
// boundaries under itself, so it is read to its end at 80 columns.
func (m Model) helpLines() []string {
	h := m.activeKeys()
	var out []string
	inner := max(20, m.width-m.c.styles.Overlay.GetHorizontalFrameSize())
	entry := func(k, desc string) {
		for i, l := range wrapText(desc, max(10, inner-15), 0) {
			if i == 0 {
				out = append(out, m.c.styles.App.Title.Render(safetext.PadRight(k, 14))+" "+l)
				continue
			}
			out = append(out, strings.Repeat(" ", 15)+l)
		}
	}
	seen := map[string]bool{}
	want := strings.ToLower(m.helpO.filter)
	for _, col := range h.FullHelp() {
		for _, b := range col {
			hk := b.Help()
			id := hk.Key + "\x00" + hk.Desc
			if !b.Enabled() || hk.Key == "" || seen[id] {
				continue
			}
			seen[id] = true
			if want != "" && !strings.Contains(strings.ToLower(hk.Key+" "+hk.Desc), want) {
				continue
			}
			entry(hk.Key, hk.Desc)
		}
	}
	// Then the palette's commands, from its registry.
	for _, c := range paletteCommands() {
		name := strings.TrimSpace(":" + c.Name + " " + c.Args)
		if want != "" && !strings.Contains(strings.ToLower(name+" "+c.Help), want) {
			continue
		}
		entry(name, c.Help)
	}
	if len(out) == 0 {
		out = append(out, m.c.styles.App.Muted.Render("no key matches "+m.helpO.filter))
	}
	return out
}

// helpRoom is how many lines of keys the overlay shows in a body of
// bodyHeight lines: the frame, the title and the filter line go first.
func helpRoom(bodyHeight int) int { return max(3, bodyHeight-6) }

// helpKey handles a key while the overlay shows.
func (m Model) helpKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	o := &m.helpO
	if o.typing {
		switch msg.String() {
		case "enter", "esc":
			o.typing = false
		case "backspace":
			if r := []rune(o.filter); len(r) > 0 {
				o.filter = string(r[:len(r)-1])
			}
		default:
			if msg.Text != "" {
				o.filter += msg.Text
			}
		}
		o.scroll = detailScroll{}
		return m, nil
	}
	k := m.helpOKeys
	total, n := len(m.helpLines()), helpRoom(m.height-chromeLines)
	switch {
	case key.Matches(msg, m.keys.CloseHelp):
		m.showHelp, m.helpO = false, helpOverlay{}
	case key.Matches(msg, k.Filter):
		o.typing = true
	case key.Matches(msg, k.Down):
		o.scroll, _ = o.scroll.update(tea.KeyPressMsg{Code: 'J', Text: "J"}, defaultScrollKeys(), total, n)
	case key.Matches(msg, k.Up):
		o.scroll, _ = o.scroll.update(tea.KeyPressMsg{Code: 'K', Text: "K"}, defaultScrollKeys(), total, n)
	case key.Matches(msg, k.PageDown):
		o.scroll.off = max(0, min(o.scroll.clamped(total, n)+n-1, total-(n-1)))
	case key.Matches(msg, k.PageUp):
		o.scroll.off = max(0, o.scroll.clamped(total, n)-(n-1))
	}
	return m, nil
}

// helpOverlayBindings are the footer's keys while the overlay shows: what
// closes it, the filter, and the scroll keys while the lines overflow.
func (m Model) helpOverlayBindings() []key.Binding {
	k := m.helpOKeys
	if m.helpO.typing {
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter/esc", "keep filter"))}
	}
	out := []key.Binding{m.keys.CloseHelp, k.Filter}
	total, n := len(m.helpLines()), helpRoom(m.height-chromeLines)
	for _, b := range m.helpO.scroll.bindings(k.Down, k.Up, total, n) {
		out = append(out, b)
		if b.Help() == k.Down.Help() {
			out = append(out, k.PageDown)
		} else {
			out = append(out, k.PageUp)
		}
	}
	return out
}

// helpView is the overlay's text inside its frame.
func (m Model) helpView(bodyHeight int) string {
	st := m.c.styles
	title := st.App.Title.Render("Keys")
	switch {
	case m.helpO.typing:
		title += "  / " + m.helpO.filter + "▏"
	case m.helpO.filter != "":
		title += "  / " + m.helpO.filter + st.App.Muted.Render("  (/ edits the filter)")
	default:
		title += st.App.Muted.Render("  / filters")
	}
	lines := m.helpO.scroll.window(m.c, m.helpLines(), helpRoom(bodyHeight))
	return title + "\n\n" + strings.Join(lines, "\n")
}
