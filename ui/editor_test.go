package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/engine"
)

// fakeEditor installs $EDITOR as a shell script that notes the file it
// was given (its mode, its directory's mode, its text) in log and replaces
// its text with the contents of the file $MEMTRACE_TEST_EDIT names.
func fakeEditor(t *testing.T) (log, next string) {
	t.Helper()
	dir := t.TempDir()
	log, next = filepath.Join(dir, "log"), filepath.Join(dir, "next")
	script := `#!/bin/sh
f="$1"
{ stat -c '%a' "$f"; stat -c '%a' "$(dirname "$f")"; echo "$f"; cat "$f"; } >> "` + log + `"
cat "` + next + `" > "$f"
`
	editor := filepath.Join(dir, "editor.sh")
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR", editor)
	return log, next
}

// TestEditorEndToEnd runs the program headless (teatest) with $EDITOR a
// script: in a promotion's wording dialog ctrl+o hands the rule to the
// editor (a 0600 file in a 0700 directory, both gone afterwards), its two
// lines come back as one, and enter approves exactly that wording; in the
// palette ctrl+o edits the command line, which then runs.
func TestEditorEndToEnd(t *testing.T) {
	log, next := fakeEditor(t)
	e, st, now := demoLessons(t)
	ctx := context.Background()
	promos, err := st.FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalPromote, Status: engine.ProposalPending})
	if err != nil || len(promos) == 0 {
		t.Fatalf("no promotion to edit (%v)", err)
	}

	tm := teatest.NewTestModel(t, newModel(context.Background(), Deps{Engine: e, Store: st, Now: now, NoColor: true}),
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(10 * time.Second)
	teatest.WaitFor(t, tm.Output(), contains("press / or i to type a query"), wait)

	tm.Type(":queue promote")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("HOT rule"), wait)
	tm.Type("a")
	teatest.WaitFor(t, tm.Output(), contains("ctrl+o edit in $EDITOR"), wait)
	if err := os.WriteFile(next, []byte("Always run gofmt\n  before every commit (커밋 전에)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	teatest.WaitFor(t, tm.Output(), contains("lines were joined"), wait)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("approved promotion"), wait)

	if err := os.WriteFile(next, []byte("tab captures\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm.Type(":tab mem")
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	// The frames typed before ctrl+o list every tab as a completion
	// ("tab captures" among them), and the renderer repaints only the
	// changed cells of the palette line (":tab " stays, "captures" is
	// written over "mem"). So the edited line is recognised as "captures"
	// drawn after the program took the screen back from the editor
	// (the last alt-screen enter).
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		i := bytes.LastIndex(b, []byte("\x1b[?1049h"))
		return i >= 0 && bytes.Contains(b[i:], []byte("captures"))
	}, wait)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("LAYER"), wait)
	tm.Type(":q")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)

	if activeTitle(final) != "Captures" {
		t.Errorf("the palette's edited :tab captures left tab %s", activeTitle(final))
	}
	var wording string
	for _, pr := range promos {
		got, err := st.GetProposal(ctx, pr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ev, _ := engine.ParsePromotion(got); got.Status == engine.ProposalApproved {
			wording = ev.CuratorWording
		}
	}
	if want := "Always run gofmt before every commit (커밋 전에)"; wording != want {
		t.Errorf("approved wording %q, want %q", wording, want)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 || lines[0] != "600" || lines[1] != "700" {
		t.Fatalf("the editor's file and directory modes: %q, want 600 and 700", lines)
	}
	if _, err := os.Stat(filepath.Dir(lines[2])); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is still there (%v)", filepath.Dir(lines[2]), err)
	}
	if !strings.Contains(string(b), "tab mem\n") {
		t.Errorf("the palette's line did not reach the editor:\n%s", b)
	}
}

// TestReadEditedChecks: what comes back from the editor is checked: lines
// joined, a symlink, bytes that are not UTF-8 and an oversize file refused
// with "nothing changed".
func TestReadEditedChecks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got, joined, err := readEdited(write("ok", "one\r\n\n two \n")); err != nil || got != "one two" || !joined {
		t.Errorf("two lines: %q %v %v", got, joined, err)
	}
	if got, joined, err := readEdited(write("one", "충주 사과\n")); err != nil || got != "충주 사과" || joined {
		t.Errorf("one line: %q %v %v", got, joined, err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(write("target", "secret"), link); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]string{
		"symlink":  link,
		"not utf8": write("bin", "\xff\xfe"),
		"oversize": write("big", strings.Repeat("a", maxEditBytes+1)),
	} {
		if _, _, err := readEdited(p); err == nil || !strings.Contains(err.Error(), "nothing changed") {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
}

// TestEditedWordingOverLimitKept: a wording over the HOT rule limit is
// not put in the input (it would be cut) but kept for the next ctrl+o.
func TestEditedWordingOverLimitKept(t *testing.T) {
	styles := NewStyles(true, true)
	c := &common{ctx: context.Background(), styles: &styles}
	p := newCuratePane(c)
	p.dlg = &dialog{kind: "wording", input: newTextInput(c, "HOT rule › ", "")}
	p.dlg.input.SetValue("short")
	long := strings.Repeat("가", maxRuleChars+1)
	p = p.edited(editedMsg{Target: editWording, Text: long})
	if p.dlg.input.Value() != "short" || p.dlg.draft != long || !strings.Contains(p.status, "the limit is 200") {
		t.Errorf("over the limit: input %q, draft %d runes, status %q", p.dlg.input.Value(), len([]rune(p.dlg.draft)), p.status)
	}
}

// TestEditedReasonGoesToTheRejectDialog: a reason edited in $EDITOR lands
// in the open reject dialog (and not in a wording dialog).
func TestEditedReasonGoesToTheRejectDialog(t *testing.T) {
	styles := NewStyles(true, true)
	c := &common{ctx: context.Background(), styles: &styles}
	p := newCuratePane(c)
	p.dlg = &dialog{kind: "reject", input: newTextInput(c, "reason › ", "")}
	p = p.edited(editedMsg{Target: editReason, Text: "an echo of the assistant, 어시스턴트의 메아리", Joined: true})
	if got := p.dlg.input.Value(); got != "an echo of the assistant, 어시스턴트의 메아리" || !strings.Contains(p.status, "joined") {
		t.Errorf("reject dialog after the edit: %q, status %q", got, p.status)
	}
	p.dlg = &dialog{kind: "wording", input: newTextInput(c, "HOT rule › ", "")}
	p = p.edited(editedMsg{Target: editReason, Text: "x"})
	if p.dlg.input.Value() != "" || !strings.Contains(p.status, "closed") {
		t.Errorf("a reason edit reached a wording dialog: %q / %q", p.dlg.input.Value(), p.status)
	}
}
