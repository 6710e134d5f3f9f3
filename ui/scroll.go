package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// detailScroll is the scroll position of a detail taller than the room it
// has (a long memory with its audit rows at 80×24): the detail renders
// every line, window shows the part that fits with a position line, and
// J/K move it. One mechanism for every detail that can overflow.
type detailScroll struct{ off int }

// scrollKeys scroll a detail by a line (and, when set, by a page); they
// are listed only while the detail overflows (overflows), so the footer
// never offers them idle.
type scrollKeys struct{ Down, Up, PageDown, PageUp key.Binding }

func defaultScrollKeys() scrollKeys {
	return scrollKeys{
		Down: key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "scroll detail down")),
		Up:   key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "scroll detail up")),
	}
}

// lineScrollKeys are a view's scroll keys made of the list keys (j/k,
// the arrows, pgup/pgdn): for a view that is all detail, where they have
// nothing else to move.
func lineScrollKeys(k listKeys) scrollKeys {
	return scrollKeys{Down: k.Down, Up: k.Up, PageDown: k.PageDown, PageUp: k.PageUp}
}

// overflows reports whether total lines need more than n rows.
func overflows(total, n int) bool { return n > 1 && total > n }

// window is exactly n lines of lines: all of them (padded) when they fit,
// else n-1 from the scroll position and a line saying where it is and
// that J and K move it.
func (s detailScroll) window(c *common, lines []string, n int) []string {
	return s.windowKeys(c, lines, n, "J", "K")
}

// windowKeys is window for a view that scrolls with other keys: the
// position line names down and up (the wheel scrolls it too).
func (s detailScroll) windowKeys(c *common, lines []string, n int, down, up string) []string {
	if n <= 0 {
		return nil
	}
	if !overflows(len(lines), n) {
		return fill(lines, n)
	}
	room := n - 1
	off := s.clamped(len(lines), n)
	out := append([]string{}, lines[off:off+room]...)
	more := down + " more"
	if off+room >= len(lines) {
		more = "end"
	}
	pos := fmt.Sprintf("── lines %d–%d of %d · %s · %s back", off+1, off+room, len(lines), more, up)
	return append(out, c.styles.App.Muted.Render(pos))
}

// clamped is the scroll position kept inside total lines shown in n rows.
func (s detailScroll) clamped(total, n int) int {
	if !overflows(total, n) {
		return 0
	}
	return max(0, min(s.off, total-(n-1)))
}

// update scrolls on J/K (and the wheel, for a pane that routes it here);
// it reports whether msg was one of them.
func (s detailScroll) update(msg tea.Msg, k scrollKeys, total, n int) (detailScroll, bool) {
	if !overflows(total, n) {
		return s, false
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Down):
			s.off = s.clamped(total, n) + 1
		case key.Matches(msg, k.Up):
			s.off = s.clamped(total, n) - 1
		case key.Matches(msg, k.PageDown):
			s.off = s.clamped(total, n) + n - 1
		case key.Matches(msg, k.PageUp):
			s.off = s.clamped(total, n) - (n - 1)
		default:
			return s, false
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelDown:
			s.off = s.clamped(total, n) + 3
		case tea.MouseWheelUp:
			s.off = s.clamped(total, n) - 3
		default:
			return s, false
		}
	default:
		return s, false
	}
	s.off = max(0, min(s.off, total-(n-1)))
	return s, true
}

// bindings are the scroll keys that would move now: down unless at the
// end, up unless at the top — none when the lines fit.
func (s detailScroll) bindings(down, up key.Binding, total, n int) []key.Binding {
	if !overflows(total, n) {
		return nil
	}
	var out []key.Binding
	off := s.clamped(total, n)
	if off < total-(n-1) {
		out = append(out, down)
	}
	if off > 0 {
		out = append(out, up)
	}
	return out
}
