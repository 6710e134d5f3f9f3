package ui

// Status messages expire: what an action said ("approved 3 proposals",
// "cancelled", a copy's result) leaves its line statusTTL after it was
// said, unless something newer replaced it. Errors stay until the next
// action (they say what to do). The root notice belongs to the tab it
// was given on and shows only there.

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// statusTTL is how long a status message stays.
const statusTTL = 6 * time.Second

// statusTimer returns the command that delivers msg after d: tea.Tick in
// the program. Tests replace it (TestMain) so that a message expires only
// when a test delivers the expiry itself.
var statusTimer = func(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// statusHolder is a pane whose status line says what an action did.
type statusHolder interface {
	// statusText is the message shown now ("" for none).
	statusText() string
	// withoutStatus clears the message if it is still text.
	withoutStatus(text string) pane
}

// statusWatch is what the root knows of one pane's status: the text it
// last saw and the number of the expiry that may clear it.
type statusWatch struct {
	text string
	seq  int
}

// maxPanes bounds the tabs the root watches (an array, so that copies of
// a Model do not share it).
const maxPanes = 8

// statusExpiredMsg clears a pane's status (pane >= 0) or the root notice
// (pane < 0) if seq is still the latest.
type statusExpiredMsg struct {
	pane int
	seq  int
}

// watchStatuses starts an expiry for every status that changed since the
// last look, and for a new notice.
func (m *Model) watchStatuses() tea.Cmd {
	var cmds []tea.Cmd
	for i, p := range m.panes {
		h, ok := p.(statusHolder)
		if !ok || i >= maxPanes {
			continue
		}
		text := h.statusText()
		w := &m.statusW[i]
		if text == w.text {
			continue
		}
		w.text = text
		w.seq++
		if text != "" {
			cmds = append(cmds, statusTimer(statusTTL, statusExpiredMsg{pane: i, seq: w.seq}))
		}
	}
	if m.notice != m.noticeW.text {
		m.noticeW.text = m.notice
		m.noticeW.seq++
		if m.notice != "" && !m.noticeErr {
			cmds = append(cmds, statusTimer(statusTTL, statusExpiredMsg{pane: -1, seq: m.noticeW.seq}))
		}
	}
	return tea.Batch(cmds...)
}

// expire clears what msg names, if nothing newer was said since.
func (m Model) expire(msg statusExpiredMsg) Model {
	if msg.pane < 0 {
		if msg.seq == m.noticeW.seq {
			m.notice, m.noticeErr = "", false
		}
		return m
	}
	if msg.pane >= len(m.panes) || msg.pane >= maxPanes || msg.seq != m.statusW[msg.pane].seq {
		return m
	}
	if h, ok := m.panes[msg.pane].(statusHolder); ok {
		m.panes[msg.pane] = h.withoutStatus(m.statusW[msg.pane].text)
	}
	return m
}

// setNotice shows a one-line message in the footer of the active tab.
func (m *Model) setNotice(text string, isErr bool) {
	m.notice, m.noticeErr, m.noticeTab = text, isErr, m.active
}

// noticeShown is the notice the footer shows now: the active tab's.
func (m Model) noticeShown() string {
	if m.noticeTab != m.active {
		return ""
	}
	return m.notice
}

func (p curatePane) statusText() string { return p.status }

func (p curatePane) withoutStatus(text string) pane {
	if p.status == text {
		p.status = ""
	}
	return p
}

func (p memoriesPane) statusText() string { return p.status }

func (p memoriesPane) withoutStatus(text string) pane {
	if p.status == text {
		p.status = ""
	}
	return p
}
