package ui

// Copy to the clipboard: y copies the Trace tab's prompt (Y its trace
// JSON, the shape of `memtrace recall --json`) or the Memories tab's
// selected memory. The text goes to the terminal as OSC 52, and to a file
// under the user's cache directory, so it is there where the terminal does
// not take OSC 52 (tmux with set-clipboard off, GNU screen, the Linux
// console). Memory text is untrusted: it is neutralised first, so a pasted
// copy cannot carry escape sequences into another terminal.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// copyTarget is one thing a key copies.
type copyTarget struct {
	Name    string // the :copy argument
	From    paneID
	Binding key.Binding
	What    string // for the status line: "the prompt of 충주 사과"
	// Text makes the text when the copy runs (in its Cmd): the footer
	// asks for the targets every frame, and a trace's JSON is not free.
	Text func() string
}

// copier is a pane that has something to copy in its current state.
type copier interface {
	copyTargets() []copyTarget
}

var (
	copyKey     = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy prompt"))
	copyJSONKey = key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy trace JSON"))
	copyMemKey  = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy memory"))
)

func (p tracePane) copyTargets() []copyTarget {
	// The marking mode has its own keys (y marks a survivor right).
	if p.trace == nil || p.picker.open || p.Typing() || p.mark != nil {
		return nil
	}
	tr := p.trace
	q := safetext.Truncate(safetext.SanitizeLine(tr.Query), 30)
	return []copyTarget{
		{Name: "prompt", From: paneTrace, Binding: copyKey, What: "the prompt of " + q, Text: func() string { return tr.Prompt }},
		{Name: "trace", From: paneTrace, Binding: copyJSONKey, What: "the trace JSON of " + q, Text: func() string { return traceJSON(tr) }},
	}
}

func (p memoriesPane) copyTargets() []copyTarget {
	if p.Typing() {
		return nil
	}
	m, ok := p.list.selected()
	if !ok {
		return nil
	}
	ref := fmt.Sprintf("memory %d", m.ID)
	if m.Key != "" {
		ref += " · key " + m.Key
	}
	text := m.Content + "\n\n(" + ref + " · " + m.Type + " · " + string(m.Status) + ")"
	return []copyTarget{{Name: "memory", From: paneMemories, Binding: copyMemKey, What: ref, Text: func() string { return text }}}
}

// traceJSON is the trace as `memtrace recall --json` prints it: indented,
// <, > and & as they are, terminal-acting runes as \uXXXX escapes.
func traceJSON(tr *engine.Trace) string {
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tr); err != nil {
		return ""
	}
	return string(safetext.EscapeJSON(doc.Bytes()))
}

// activeCopyTargets are what the active pane can copy now.
func (m Model) activeCopyTargets() []copyTarget {
	p, ok := m.activePane()
	if !ok {
		return nil
	}
	if c, ok := p.(copier); ok {
		return c.copyTargets()
	}
	return nil
}

// copyTargetsAll are what every tab can copy now (for :copy).
func (m Model) copyTargetsAll() []copyTarget {
	var out []copyTarget
	for _, p := range m.panes {
		if c, ok := p.(copier); ok {
			out = append(out, c.copyTargets()...)
		}
	}
	return out
}

// copiedMsg is the result of a copy: whether OSC 52 goes out, and the file
// the text was written to.
type copiedMsg struct {
	What, Text string
	OSC        bool
	Why        string // why OSC 52 would not reach a clipboard
	Unsure     string // why it may not (it is sent all the same)
	File       string
	Err        error // the file could not be written
}

// noticeMsg is a one-line message for the active tab's footer (until the
// next key; one that is not an error expires too).
type noticeMsg struct {
	Text string
	Err  bool
}

// copyCmd neutralises t's text, writes it to the fallback file and finds
// out whether the terminal takes OSC 52 (I/O, so in a Cmd).
func copyCmd(t copyTarget) tea.Cmd {
	return func() tea.Msg {
		msg := copiedMsg{What: t.What, Text: safetext.Sanitize(t.Text())}
		var blocked string
		blocked, msg.Unsure = oscBlocked()
		msg.Why, msg.OSC = blocked, blocked == ""
		msg.File, msg.Err = writeCopyFile(msg.Text)
		return msg
	}
}

// copied turns a copy's result into the footer notice and the OSC 52
// sequence.
func (m Model) copied(msg copiedMsg) (Model, tea.Cmd) {
	n := len([]rune(msg.Text))
	msg.File = homeRelative(msg.File)
	m.noticeTab = m.active
	switch {
	case msg.OSC && msg.Unsure != "" && msg.Err == nil:
		m.notice = fmt.Sprintf("wrote the clipboard file %s (%s, %d chars); OSC 52 sent too, which may not reach the clipboard (%s)", msg.File, msg.What, n, msg.Unsure)
	case msg.OSC && msg.Err == nil:
		m.notice = fmt.Sprintf("copied %s (%d chars) to the clipboard via OSC 52; also in %s", msg.What, n, msg.File)
	case msg.OSC:
		m.notice = fmt.Sprintf("copied %s (%d chars) to the clipboard via OSC 52 (the copy file failed: %v)", msg.What, n, msg.Err)
	case msg.Err == nil:
		m.notice = fmt.Sprintf("not in the clipboard: %s is in %s (%s)", msg.What, msg.File, msg.Why)
	default:
		m.notice = fmt.Sprintf("not copied: %s, and %s could not be written: %v", msg.Why, msg.File, msg.Err)
		m.noticeErr = true
		return m, nil
	}
	m.noticeErr = false
	if !msg.OSC {
		return m, nil
	}
	return m, tea.SetClipboard(msg.Text)
}

// oscBlocked says why OSC 52 would not reach a clipboard here (blocked),
// or why it may not (unsure: it is sent, and the notice leads with the
// file), or neither when it may (no terminal confirms it). Inside tmux only
// set-clipboard on passes an application's OSC 52 to the outer terminal;
// external, tmux's default, keeps it for tmux's own copy mode.
func oscBlocked() (blocked, unsure string) {
	switch os.Getenv("TERM") {
	case "linux", "dumb":
		return "TERM=" + os.Getenv("TERM") + " has no clipboard", ""
	}
	if os.Getenv("STY") != "" {
		return "GNU screen passes no OSC 52", ""
	}
	if os.Getenv("TMUX") == "" {
		return "", ""
	}
	out, err := exec.Command("tmux", "show-options", "-gv", "set-clipboard").Output()
	switch v := strings.TrimSpace(string(out)); {
	case err != nil:
		return "", "tmux's set-clipboard could not be read"
	case v == "on":
		return "", ""
	case v == "off":
		return "tmux set-clipboard is off: set -g set-clipboard on", ""
	case v == "external":
		return "tmux set-clipboard is external (its default), which keeps an app's OSC 52 from the terminal: set -g set-clipboard on", ""
	default:
		return "", fmt.Sprintf("tmux set-clipboard is %q", v)
	}
}

// copyFileName is the fallback file's name in the user's cache directory.
const copyFileName = "clipboard.txt"

// writeCopyFile writes text to <cache>/memtrace/clipboard.txt, 0600: a new
// file renamed over the old one, so a symlink planted there is replaced,
// never followed.
func writeCopyFile(text string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "memtrace")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, copyFileName)
	f, err := os.CreateTemp(dir, ".clipboard-*")
	if err != nil {
		return path, err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := firstErr(werr, cerr); err != nil {
		os.Remove(f.Name())
		return path, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return path, err
	}
	return path, nil
}

// homeRelative writes a path under $HOME as ~/….
func homeRelative(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
		return "~/" + rel
	}
	return path
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
