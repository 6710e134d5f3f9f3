package ui

// Long wording in $EDITOR: ctrl+o in an input that takes long text (the
// palette, the Trace query, a HOT rule's wording) writes the text to a new
// file in a private temporary directory, runs $EDITOR on it through
// tea.ExecProcess (the TUI gives the terminal to the editor and takes it
// back), and reads the result back, checked.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// editTarget is the input an edit goes back to.
type editTarget int

const (
	editPalette editTarget = iota
	editQuery              // the Trace tab's query
	editWording            // a promotion's HOT rule in Curate
	editReason             // a rejection's reason in Curate
)

// editTo is the pane whose input a target is; "" is the root (the palette).
var editTo = map[editTarget]paneID{editPalette: "", editQuery: paneTrace, editWording: paneCurate, editReason: paneCurate}

// editedMsg is the editor's result: the text saved, one line (newlines
// became spaces; Joined says so), or why there is none.
type editedMsg struct {
	Target editTarget
	Text   string
	Joined bool
	Err    error
}

func editorKey() key.Binding {
	return key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "edit in $EDITOR"))
}

// maxReasonChars is the reject dialog's limit on a reason.
const maxReasonChars = 200

// maxEditBytes bounds what is read back: the inputs are one line.
const maxEditBytes = 64 << 10

// editorCommand is $EDITOR (with its arguments, e.g. "code -w"), else vi.
func editorCommand(path string) *exec.Cmd {
	fields := strings.Fields(os.Getenv("EDITOR"))
	if len(fields) == 0 {
		fields = []string{"vi"}
	}
	return exec.Command(fields[0], append(fields[1:], path)...)
}

// editInEditor opens initial in $EDITOR for target. The file is created
// 0600 in a new 0700 directory, so nobody else can put a symlink in its
// place while the editor runs; both are removed afterwards.
func editInEditor(initial string, target editTarget) (tea.Cmd, error) {
	dir, err := os.MkdirTemp("", "memtrace-edit-")
	if err != nil {
		return nil, fmt.Errorf("$EDITOR: cannot make a temporary file: %v", err)
	}
	path := filepath.Join(dir, "text.txt")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.WriteString(initial + "\n")
		err = firstErr(err, f.Close())
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("$EDITOR: cannot write the temporary file: %v", err)
	}
	cmd := tea.ExecProcess(editorCommand(path), func(runErr error) tea.Msg {
		defer os.RemoveAll(dir)
		msg := editedMsg{Target: target}
		if runErr != nil {
			msg.Err = fmt.Errorf("$EDITOR (%s) failed: %v; nothing changed", editorCommand(path).Args[0], runErr)
		} else {
			msg.Text, msg.Joined, msg.Err = readEdited(path)
		}
		if to := editTo[target]; to != "" {
			return send(to, msg)
		}
		return msg
	})
	return cmd, nil
}

// readEdited reads the edited file back: a regular file (an editor that
// left a symlink there is refused), at most maxEditBytes of UTF-8, its
// lines joined into one.
func readEdited(path string) (string, bool, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", false, fmt.Errorf("the edited file is gone (%v); nothing changed", err)
	}
	if !fi.Mode().IsRegular() {
		return "", false, errors.New("the edited file is not a regular file any more; nothing changed")
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxEditBytes+1))
	if err != nil {
		return "", false, err
	}
	if len(b) > maxEditBytes {
		return "", false, fmt.Errorf("the edited text is over %d KiB; nothing changed", maxEditBytes>>10)
	}
	if !utf8.Valid(b) {
		return "", false, errors.New("the edited text is not UTF-8; nothing changed")
	}
	text := strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n \t")
	lines := strings.Split(text, "\n")
	var kept []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, " "), len(kept) > 1, nil
}

// editedNotice is what the status line says after an edit.
func editedNotice(msg editedMsg, limit int) (string, bool) {
	switch {
	case msg.Err != nil:
		return msg.Err.Error(), false
	case limit > 0 && utf8.RuneCountInString(msg.Text) > limit:
		return fmt.Sprintf("the edited text has %d characters, the limit is %d: nothing changed; shorten it (ctrl+o again)", utf8.RuneCountInString(msg.Text), limit), false
	case msg.Joined:
		return "edited in $EDITOR; its lines were joined into one", true
	}
	return "edited in $EDITOR", true
}

// edited puts the Trace query edited in $EDITOR back into its input.
func (p tracePane) edited(msg editedMsg) (tracePane, tea.Cmd) {
	note, ok := editedNotice(msg, 0)
	if !ok {
		p.err = note
		return p, nil
	}
	p.err = ""
	p.query.SetValue(msg.Text)
	p.query.CursorEnd()
	return p, p.query.Focus()
}

// edited puts a HOT rule's wording or a rejection's reason edited in
// $EDITOR back into its open dialog (enter still approves or rejects).
func (p curatePane) edited(msg editedMsg) curatePane {
	kind, limit := "wording", maxRuleChars
	if msg.Target == editReason {
		kind, limit = "reject", maxReasonChars
	}
	if p.dlg == nil || p.dlg.kind != kind {
		p.status = "the dialog was closed: the edit is not used"
		return p
	}
	d := *p.dlg
	note, ok := editedNotice(msg, limit)
	switch {
	case ok:
		d.input.SetValue(msg.Text)
		d.input.CursorEnd()
		d.draft = ""
	case msg.Err == nil:
		d.draft = msg.Text // over the limit: kept for the next ctrl+o
	}
	p.status = note
	p.dlg = &d
	return p
}
