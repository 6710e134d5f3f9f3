package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"memtrace/engine"
)

// clipEnv points the cache directory at a temp dir and sets the terminal
// variables oscBlocked reads; it returns where the copy file goes.
func clipEnv(t *testing.T, term, tmux string) string {
	t.Helper()
	home := t.TempDir()
	cache := filepath.Join(home, ".cache")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", home)
	t.Setenv("TERM", term)
	t.Setenv("TMUX", tmux)
	t.Setenv("STY", "")
	return filepath.Join(cache, "memtrace", copyFileName)
}

// pressCopy sends key k and runs the copy it starts: it returns the model
// after the copy and the text of the OSC 52 command (empty: none).
func pressCopy(t *testing.T, m Model, k string) (Model, string, bool) {
	t.Helper()
	next, cmd := m.Update(press(k))
	m = next.(Model)
	if cmd == nil {
		t.Fatalf("%s returned no command (footer: %s)", k, lastLine(screen(m)))
	}
	var copied *copiedMsg
	for _, msg := range runAll(cmd) {
		if c, ok := msg.(copiedMsg); ok {
			copied = &c
		}
	}
	if copied == nil {
		t.Fatalf("%s did not copy", k)
	}
	next, cmd = m.Update(*copied)
	m = next.(Model)
	if cmd == nil {
		return m, "", false
	}
	msg := cmd()
	if fmt.Sprintf("%T", msg) != "tea.setClipboardMsg" {
		t.Fatalf("the copy's command sends %T, want tea.SetClipboard", msg)
	}
	return m, fmt.Sprint(msg), true
}

// TestCopyTracePromptAndJSON: y in Trace copies the prompt, Y the trace
// document, each to OSC 52 and to the cache file, and the footer says
// what and where.
func TestCopyTracePromptAndJSON(t *testing.T) {
	file := clipEnv(t, "xterm-256color", "")
	m, _ := demoModel(t, 120, 40)
	m = drive(t, typePalette(t, m, "recall 충주 사과"), press("enter"))
	tr := m.panes[m.paneIndex(paneTrace)].(tracePane).trace
	if tr == nil || tr.Prompt == "" {
		t.Fatal("the recall has no prompt")
	}
	if h := m.helpKeys(); !hasKey(h.FullHelp(), "y", "copy prompt") || !hasKey(h.FullHelp(), "Y", "copy trace JSON") {
		t.Errorf("? does not list y and Y")
	}
	m, osc, ok := pressCopy(t, m, "y")
	if !ok || osc != tr.Prompt {
		t.Fatalf("y sent %q over OSC 52 (ok %v), want the prompt", firstRunes(osc, 40), ok)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != tr.Prompt {
		t.Errorf("the copy file %s: %v, %q", file, err, firstRunes(string(b), 40))
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy file's mode: %v %v, want 0600", fi.Mode(), err)
	}
	if s := lastLine(screen(m)); !strings.Contains(s, "copied the prompt of 충주 사과") || !strings.Contains(s, "OSC 52") {
		t.Errorf("the footer after y: %s", s)
	}

	m, osc, _ = pressCopy(t, m, "Y")
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(osc), &doc); err != nil {
		t.Fatalf("Y copied no JSON: %v", err)
	}
	for _, k := range []string{"query", "at", "stages", "survivors", "prompt"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("the copied trace JSON lacks %q (recall --json has it)", k)
		}
	}
	var back engine.Trace
	if err := json.Unmarshal([]byte(osc), &back); err != nil || back.Query != tr.Query || len(back.Survivors) != len(tr.Survivors) {
		t.Errorf("the copied trace reads back as %q with %d survivors: %v", back.Query, len(back.Survivors), err)
	}
	if !strings.Contains(lastLine(screen(m)), "trace JSON") {
		t.Errorf("the footer after Y: %s", lastLine(screen(m)))
	}
	// The next key clears the notice.
	m = drive(t, m, press("l"))
	if strings.Contains(lastLine(screen(m)), "copied") {
		t.Errorf("the notice outlived the next key: %s", lastLine(screen(m)))
	}
}

// TestCopyMemoryNeutralised: y in Memories copies the content with its id
// and key; an escape sequence in it reaches neither OSC 52 nor the file.
func TestCopyMemoryNeutralised(t *testing.T) {
	file := clipEnv(t, "xterm", "")
	ms := newMemories(3)
	ms[0].Content = "hostile \x1b]0;pwned\x07 title and \x1b[2J clear 충주"
	ms[0].Hash = engine.ContentHash(ms[0].Content)
	m, _ := openMemories(t, ms, 100, 30)
	m, osc, ok := pressCopy(t, m, "y")
	if !ok {
		t.Fatal("no OSC 52")
	}
	if strings.ContainsAny(osc, "\x1b\x07") {
		t.Errorf("the clipboard text carries a control: %q", osc)
	}
	for _, want := range []string{"hostile ␛]0;pwned", "충주", "memory 1 · key msg-1"} {
		if !strings.Contains(osc, want) {
			t.Errorf("the clipboard text lacks %q: %q", want, osc)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != osc {
		t.Errorf("the file holds %q, the clipboard %q", b, osc)
	}
	if s := lastLine(screen(m)); !strings.Contains(s, "copied memory 1 · key msg-1") {
		t.Errorf("footer: %s", s)
	}
}

// TestCopyFallbackWhereNoOSC52: inside tmux with set-clipboard off (a real
// tmux subprocess answers, faked by a script on PATH) and on the Linux
// console, no OSC 52 goes out; the footer says why and where the text is.
func TestCopyFallbackWhereNoOSC52(t *testing.T) {
	fakeTmux(t)
	for _, c := range []struct{ term, tmux, setting, why string }{
		{"screen-256color", "/tmp/tmux-0/default,1,0", "off", "set-clipboard is off"},
		// tmux's default: an app's OSC 52 never leaves tmux.
		{"screen-256color", "/tmp/tmux-0/default,1,0", "external", "set-clipboard is external"},
		{"linux", "", "", "TERM=linux"},
	} {
		t.Setenv("FAKE_CLIPBOARD", c.setting)
		file := clipEnv(t, c.term, c.tmux)
		m, _ := openMemories(t, newMemories(2), 120, 30)
		m, _, ok := pressCopy(t, m, "y")
		if ok {
			t.Errorf("%s: OSC 52 went out", c.why)
		}
		s := lastLine(screen(m))
		if !strings.Contains(s, c.why) || !strings.Contains(s, "~/.cache/memtrace/"+copyFileName) {
			t.Errorf("%s: footer %q", c.why, s)
		}
		if b, err := os.ReadFile(file); err != nil || !strings.HasPrefix(string(b), "memory number 1") {
			t.Errorf("%s: the file: %v %q", c.why, err, b)
		}
	}
}

// TestCopyUnsureInTmux: with tmux's set-clipboard on, OSC 52 goes out
// and the copy is claimed; when the setting cannot be read, OSC 52 goes
// out all the same but the footer leads with the file it wrote.
func TestCopyUnsureInTmux(t *testing.T) {
	fakeTmux(t)
	for _, c := range []struct{ setting, want string }{
		{"on", "copied memory 1"},
		{"", "wrote the clipboard file ~/.cache/memtrace/" + copyFileName},
	} {
		t.Setenv("FAKE_CLIPBOARD", c.setting)
		clipEnv(t, "screen-256color", "/tmp/tmux-0/default,1,0")
		m, _ := openMemories(t, newMemories(2), 120, 30)
		m, _, ok := pressCopy(t, m, "y")
		if !ok {
			t.Errorf("set-clipboard %q: no OSC 52 went out", c.setting)
		}
		if s := lastLine(screen(m)); !strings.Contains(s, c.want) {
			t.Errorf("set-clipboard %q: footer %q, want %q", c.setting, s, c.want)
		}
	}
}

// TestCopyFileReplacesASymlink: a symlink planted at the copy file is
// replaced, not followed.
func TestCopyFileReplacesASymlink(t *testing.T) {
	file := clipEnv(t, "xterm", "")
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, file); err != nil {
		t.Fatal(err)
	}
	if _, err := writeCopyFile("new text"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	if fi, _ := os.Lstat(file); fi.Mode()&os.ModeSymlink != 0 {
		t.Error("the copy file is still a symlink")
	}
}

// TestCopyNotOffered: with nothing to copy, y is not in the footer and
// does nothing; :copy says what to do.
func TestCopyNotOffered(t *testing.T) {
	clipEnv(t, "xterm", "")
	m, _ := demoModel(t, 120, 40)
	if strings.Contains(lastLine(screen(m)), "copy") {
		t.Errorf("the footer offers a copy with no trace: %s", lastLine(screen(m)))
	}
	_, cmd := m.Update(press("y"))
	for _, msg := range runAll(cmd) {
		if _, ok := msg.(copiedMsg); ok {
			t.Error("y copied with no trace")
		}
	}
	m = drive(t, typePalette(t, m, "copy prompt"), press("enter"))
	if !strings.Contains(m.pal.err, `no "prompt" here`) {
		t.Errorf(":copy prompt with no trace: %q", m.pal.err)
	}
}

func hasKey(cols [][]key.Binding, k, desc string) bool {
	for _, col := range cols {
		for _, b := range col {
			if b.Help().Key == k && b.Help().Desc == desc {
				return true
			}
		}
	}
	return false
}

// fakeTmux puts a tmux on PATH that answers `show-options -gv
// set-clipboard` with $FAKE_CLIPBOARD, and fails when it is empty (a tmux
// that cannot be asked).
func fakeTmux(t *testing.T) {
	t.Helper()
	bin := t.TempDir()
	script := "#!/bin/sh\n[ \"$1 $2 $3\" = \"show-options -gv set-clipboard\" ] && [ -n \"$FAKE_CLIPBOARD\" ] && echo \"$FAKE_CLIPBOARD\" && exit 0\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}
