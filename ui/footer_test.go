package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/tiers"
)

// footerMode is a state of the UI whose footer and ? overlay are checked.
type footerMode struct {
	name  string
	setup func(t *testing.T, m Model) Model
	want  string // a key description the mode lists (the setup reached it)
}

func keys(ks ...string) func(t *testing.T, m Model) Model {
	return func(t *testing.T, m Model) Model {
		t.Helper()
		for _, k := range ks {
			m = drive(t, m, keyPress(k))
		}
		return m
	}
}

// then chains setups.
func then(fs ...func(t *testing.T, m Model) Model) func(t *testing.T, m Model) Model {
	return func(t *testing.T, m Model) Model {
		for _, f := range fs {
			m = f(t, m)
		}
		return m
	}
}

func tabTo(title string) func(t *testing.T, m Model) Model {
	return func(t *testing.T, m Model) Model { return goTo(t, m, title) }
}

// TestFooterKeysAct walks every tab and mode (inputs, dialogs, the split
// view, the item view, the palette, the ? overlay) and sends every key the
// footer and ? list there: each must change the screen, or start a command
// whose result changes it (or quit). A key listed that does nothing fails.
func TestFooterKeysAct(t *testing.T) {
	clipEnv(t, "xterm", "")
	eng, db := openDemo(t)
	if _, err := tiers.Heartbeat(context.Background(), eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			walkFooters(t, renderModel(t, eng, db, size[0], size[1]))
		})
	}
}

func walkFooters(t *testing.T, base Model) {
	query := then(keys("/"), func(t *testing.T, m Model) Model { return typeText(t, m, "충주 사과") }, keys("enter"))
	// Mid-list, so that up, down, first and last all move.
	mid := keys("down", "down")
	modes := []footerMode{
		{"trace empty", tabTo("Trace"), "query"},
		{"trace query input", keys("/"), "leave input"},
		{"trace time input", keys("@"), "set time"},
		{"trace stages", then(query, keys("left", "g"), mid), "items"},
		{"trace items", then(query, keys("right"), mid), "open item"},
		{"trace item open", then(query, keys("right", "enter")), "close item"},
		{"trace prompt", then(query, keys("right", "p")), "prompt ⇄ items"},
		{"trace split", then(query, keys("]", "]", "s", "left", "g"), mid), "now vs +N"},
		{"trace stored traces", then(query, keys("o"), mid), "close"},
		{"golden", then(tabTo("Golden"), mid), "run all"},
		{"curate", then(tabTo("Curate"), mid), "approve"},
		{"curate history", then(tabTo("Curate"), keys("H"), mid), "batch history"},
		{"curate held", then(tabTo("Curate"), keys("v")), "held captures"},
		{"curate control", then(tabTo("Curate"), keys("c"), mid), "control sample"},
		{"curate retype chooser", then(tabTo("Curate"), keys("t"), mid), "confirm"},
		{"curate wording dialog", then(func(t *testing.T, m Model) Model { return drive(t, typePalette(t, m, "queue promote"), press("enter")) }, keys("a")), "approve with this wording"},
		{"curate confirm", then(tabTo("Curate"), keys("A")), "confirm"},
		{"curate reject dialog", then(tabTo("Curate"), keys("x")), "reject with this reason"},
		{"curate filter input", then(tabTo("Curate"), keys("/")), "keep filter"},
		{"curate batch changes", then(tabTo("Curate"), keys("H", "enter"), mid), "back to history"},
		{"curate superseded", then(tabTo("Curate"), keys("S"), mid), "superseded links"},
		{"trace marking", then(query, keys("M"), mid), "leave marking"},
		{"memories", then(tabTo("Memories"), mid), "quarantine"},
		{"memories filter input", then(tabTo("Memories"), keys("/")), "done"},
		{"memories filtered", then(tabTo("Memories"), keys("/", "a", "enter"), mid), "clear filter"},
		{"memories detail", then(tabTo("Memories"), mid, keys("enter")), "close detail"},
		{"captures", then(tabTo("Captures"), mid), "cycle layer"},
		{"captures filter input", then(tabTo("Captures"), keys("/")), "done"},
		{"captures patterns", then(tabTo("Captures"), keys("f"), mid), "cycle layer"},
		{"curate empty queue", then(func(t *testing.T, m Model) Model { return drive(t, typePalette(t, m, "queue move"), press("enter")) }, emptyQueue), "next queue"},
		{"palette", keys(":"), "complete"},
		{"help overlay", keys("?"), "close this help"},
		// Both confirmations of rolling the ingest run back (the first says
		// what it will do, the second wants a capital Y): last, and neither
		// is passed here — keyActs sees the dialog close before any write.
		{"curate rollback confirm", then(tabTo("Curate"), keys("H", "G", "u")), "confirm"},
		{"curate rollback force", then(tabTo("Curate"), keys("H", "G", "u", "y")), "roll back"},
	}
	for _, md := range modes {
		t.Run(strings.ReplaceAll(md.name, " ", "_"), func(t *testing.T) {
			m := md.setup(t, snapshot(base))
			if !hasDesc(listedBindings(m), md.want) {
				t.Fatalf("%s: the setup did not reach the mode: no %q among the keys listed:\n%s", md.name, md.want, screen(m))
			}
			checkActionIDs(t, m)
			for _, b := range listedBindings(m) {
				if !keyActs(t, snapshot(m), b) {
					t.Errorf("%s: the footer or ? lists %q (%s), and it does nothing", md.name, b.Help().Key, b.Help().Desc)
				}
			}
		})
	}
}

// emptyQueue checks that the setup reached a queue with nothing in it.
func emptyQueue(t *testing.T, m Model) Model {
	t.Helper()
	if _, ok := m.curate().queues.list.current(); ok || m.curate().mode != modeQueue {
		t.Fatalf("not an empty queue:\n%s", screen(m))
	}
	return m
}

func hasDesc(bs []key.Binding, desc string) bool {
	for _, b := range bs {
		if b.Help().Desc == desc {
			return true
		}
	}
	return false
}

// snapshot is m with its own slice of panes: the root stores panes back
// into the slice, which copies of a Model share.
func snapshot(m Model) Model {
	m.panes = slices.Clone(m.panes)
	return m
}

// listedBindings are the footer's bindings and the ? overlay's, once each.
func listedBindings(m Model) []key.Binding {
	h := m.helpKeys()
	seen := map[string]bool{}
	var out []key.Binding
	add := func(b key.Binding) {
		id := b.Help().Key + "\x00" + b.Help().Desc
		if !b.Enabled() || seen[id] {
			return
		}
		seen[id] = true
		out = append(out, b)
	}
	for _, b := range h.ShortHelp() {
		add(b)
	}
	for _, col := range h.FullHelp() {
		for _, b := range col {
			add(b)
		}
	}
	return out
}

// keyActs sends b's first key (for "1-5": another tab's number) and
// reports whether anything happened.
func keyActs(t *testing.T, m Model, b key.Binding) bool {
	t.Helper()
	k := keyPress(b.Keys()[0])
	if b.Help().Key == "1-5" {
		k = keyPress("2")
		if m.active == 1 {
			k = keyPress("1")
		}
	}
	// The frame with its attributes: without colour a selection is
	// reverse video, which ansi.Strip would hide.
	frame := func(m Model) string { return m.View().Content }
	before := frame(m)
	next, cmd := m.Update(k)
	nm := next.(Model)
	if frame(nm) != before {
		return true
	}
	if cmd == nil {
		return false
	}
	msgs := runAll(cmd)
	for _, msg := range msgs {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
		if fmt.Sprintf("%T", msg) == "tea.execMsg" {
			return true // $EDITOR: the program runs it
		}
	}
	var feed []tea.Msg
	for _, msg := range msgs {
		switch msg.(type) {
		case paneMsg, startMsg, storeChangedMsg, OpenMemoryMsg, OpenTraceMsg, copiedMsg, noticeMsg, editedMsg:
			feed = append(feed, msg)
		}
	}
	return frame(drive(t, nm, feed...)) != before
}

// checkActionIDs fails when two of the active pane's keys with different
// help become the same palette action (paneActions keeps the first, so
// ":memories importance-…" could not reach the second).
func checkActionIDs(t *testing.T, m Model) {
	t.Helper()
	p, ok := m.activePane()
	if !ok {
		return
	}
	byName := map[string]string{}
	for _, b := range p.KeyBindings() {
		h := b.Help()
		name := slug(h.Desc)
		if prev, dup := byName[name]; dup && prev != h.Desc {
			t.Errorf("%q and %q are both the palette action %q", prev, h.Desc, name)
		}
		byName[name] = h.Desc
	}
}
