package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every global key of the UI. Panes keep their own bindings and
// report them through KeyBindings, so the footer and the "?" overlay always
// show what the keys do right now.
type KeyMap struct {
	NextTab, PrevTab, Tab1, Tab2, Tab3, Tab4, Tab5 key.Binding
	Help, Quit, ForceQuit, Palette                 key.Binding
	// CloseHelp is what the keys do while the ? overlay shows.
	CloseHelp key.Binding
}

// DefaultKeyMap returns the global key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextTab:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		PrevTab:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		Tab1:      key.NewBinding(key.WithKeys("1"), key.WithHelp("1-5", "go to tab")),
		Tab2:      key.NewBinding(key.WithKeys("2")),
		Tab3:      key.NewBinding(key.WithKeys("3")),
		Tab4:      key.NewBinding(key.WithKeys("4")),
		Tab5:      key.NewBinding(key.WithKeys("5")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Palette:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		CloseHelp: key.NewBinding(key.WithKeys("?", "esc", "q"), key.WithHelp("?/esc/q", "close this help")),
	}
}

// tabKeys are the number keys in tab order.
func (k KeyMap) tabKeys() []key.Binding {
	return []key.Binding{k.Tab1, k.Tab2, k.Tab3, k.Tab4, k.Tab5}
}

// listKeys are the movement keys every list-shaped pane shares.
type listKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

func defaultListKeys() listKeys {
	return listKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "first")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "last")),
	}
}

func (k listKeys) bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// helpKeys is what the help bubble renders: the active pane's keys first,
// then the global ones. It implements help.KeyMap.
type helpKeys struct {
	global KeyMap
	pane   []key.Binding
	typing bool // an input or a dialog has the keys: ? and q do not act
}

// ShortHelp is the footer: help and quit, then as many of the pane's keys
// as fit; inside an input or a dialog only the pane's keys (and ctrl+c).
func (h helpKeys) ShortHelp() []key.Binding {
	if h.typing {
		return append(append([]key.Binding(nil), h.pane...), h.global.ForceQuit)
	}
	return append([]key.Binding{h.global.Help, h.global.Quit, h.global.Palette}, h.pane...)
}

// FullHelp is the "?" overlay: the pane's keys in columns of six, then the
// global keys.
func (h helpKeys) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for i := 0; i < len(h.pane); i += 6 {
		cols = append(cols, h.pane[i:min(i+6, len(h.pane))])
	}
	if h.typing {
		// The input or the dialog has the keys: tab, the numbers, : and
		// q are its text or its answers.
		return append(cols, []key.Binding{h.global.ForceQuit})
	}
	return append(cols, []key.Binding{h.global.NextTab, h.global.PrevTab, h.global.Tab1, h.global.Palette, h.global.Help, h.global.Quit, h.global.ForceQuit})
}
