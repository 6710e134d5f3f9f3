package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/tiers"
)

// footerMode is a state of the UI whose footer and ? overlay are checked.
type footerMode struct {
	name  string
	setup func(t *testing.T, m Model) Model
	want  string // a key description the mode lists (the setup reached it)
	// sub: a sub-view, a dialog or an input, which esc leaves (the keys it
	// lists, want among them, are gone after esc).
	sub bool
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
	// A database with nothing in it: every Curate queue and view empty,
	// no memories, no captures.
	clock := func() time.Time { return testNow }
	empty := storetest.MustOpenClock(t, clock)
	emptyEng, err := engine.Open(context.Background(), engine.Options{Store: empty, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("empty_%dx%d", size[0], size[1]), func(t *testing.T) {
			base := startModel(t, Deps{Engine: emptyEng, Store: empty, Now: clock, NoColor: true}, size[0], size[1])
			walkModes(t, base, emptyModes())
		})
	}
}

// emptyModes are the modes of an empty database: each Curate queue, the
// Curate views with no rows, the empty Memories and Captures lists.
func emptyModes() []footerMode {
	var modes []footerMode
	for i, kind := range curateKinds() {
		modes = append(modes, footerMode{"curate empty " + kind, then(tabTo("Curate"), func(t *testing.T, m Model) Model {
			t.Helper()
			for range i {
				m = drive(t, m, keyPress("l"))
			}
			if got := curateKinds()[m.curate().queues.kindIdx]; got != kind {
				t.Fatalf("l %d times shows the %s queue, want %s", i, got, kind)
			}
			return m
		}, emptyQueue), "next queue", false})
	}
	return append(modes,
		footerMode{"curate empty history", then(tabTo("Curate"), keys("H")), "back to queues", true},
		footerMode{"curate empty held", then(tabTo("Curate"), keys("v")), "back to queues", true},
		footerMode{"curate empty control", then(tabTo("Curate"), keys("c")), "back to queues", true},
		footerMode{"curate empty superseded", then(tabTo("Curate"), keys("S")), "back to queues", true},
		footerMode{"memories empty", tabTo("Memories"), "filter", false},
		footerMode{"captures empty", tabTo("Captures"), "filter text", false},
		footerMode{"captures empty patterns", then(tabTo("Captures"), keys("f")), "back to captures", true},
		footerMode{"trace empty", tabTo("Trace"), "query", false},
	)
}

func walkFooters(t *testing.T, base Model) {
	walkModes(t, base, demoModes())
}

// demoModes are the modes of the demo database.
func demoModes() []footerMode {
	query := then(keys("/"), func(t *testing.T, m Model) Model { return typeText(t, m, "충주 사과") }, keys("enter"))
	// Mid-list, so that up, down, first and last all move.
	mid := keys("down", "down")
	return []footerMode{
		{"trace empty", tabTo("Trace"), "query", false},
		{"trace query input", keys("/"), "leave input", true},
		{"trace time input", keys("@"), "set time", true},
		{"trace stages", then(query, keys("left", "g"), mid), "items", false},
		{"trace items", then(query, keys("right"), mid), "open item", false},
		{"trace item open", then(query, keys("right", "enter")), "close item", true},
		{"trace prompt", then(query, keys("right", "p")), "close prompt", true},
		{"trace split", then(query, keys("]", "]", "s", "left", "g"), mid), "close split", true},
		{"trace stored traces", then(query, keys("o"), mid), "close", true},
		{"golden", then(tabTo("Golden"), mid), "run all", false},
		{"curate", then(tabTo("Curate"), mid), "approve", false},
		{"curate history", then(tabTo("Curate"), keys("H"), mid), "back to queues", true},
		{"curate held", then(tabTo("Curate"), keys("v")), "back to queues", true},
		{"curate control", then(tabTo("Curate"), keys("c"), mid), "back to queues", true},
		{"curate retype chooser", then(tabTo("Curate"), keys("t"), mid), "confirm", true},
		{"curate wording dialog", then(func(t *testing.T, m Model) Model { return drive(t, typePalette(t, m, "queue promote"), press("enter")) }, keys("a")), "approve with this wording", true},
		{"curate confirm", then(tabTo("Curate"), keys("A")), "confirm", true},
		{"curate reject dialog", then(tabTo("Curate"), keys("x")), "reject with this reason", true},
		{"curate filter input", then(tabTo("Curate"), keys("/")), "keep filter", true},
		{"curate batch changes", then(tabTo("Curate"), keys("H", "enter"), mid), "back to history", true},
		{"curate superseded", then(tabTo("Curate"), keys("S"), mid), "back to queues", true},
		{"trace marking", then(query, keys("M"), mid), "leave marking", true},
		{"memories", then(tabTo("Memories"), mid), "quarantine", false},
		{"memories filter input", then(tabTo("Memories"), keys("/")), "done", true},
		{"memories filtered", then(tabTo("Memories"), keys("/", "a", "enter"), mid), "clear filter", true},
		{"memories detail", then(tabTo("Memories"), mid, keys("enter")), "close detail", true},
		{"captures", then(tabTo("Captures"), mid), "cycle layer", false},
		{"captures filter input", then(tabTo("Captures"), keys("/")), "done", true},
		{"captures patterns", then(tabTo("Captures"), keys("f"), mid), "back to captures", true},
		{"curate empty queue", then(func(t *testing.T, m Model) Model { return drive(t, typePalette(t, m, "queue move"), press("enter")) }, emptyQueue), "next queue", false},
		{"palette", keys(":"), "complete", true},
		{"help overlay", keys("?"), "close this help", true},
		// Both confirmations of rolling the ingest run back (the first says
		// what it will do, the second wants a capital Y): last, and neither
		// is passed here — keyActs sees the dialog close before any write.
		{"curate rollback confirm", then(tabTo("Curate"), keys("H", "G", "u")), "confirm", true},
		{"curate rollback force", then(tabTo("Curate"), keys("H", "G", "u", "y")), "roll back", true},
		{"golden open set", then(tabTo("Golden"), keys("o")), "load", true},
		{"golden choose baseline", then(tabTo("Golden"), keys("b")), "load", true},
		{"memories supersede choose", then(tabTo("Memories"), mid, keys("s")), "link with this memory", true},
		{"memories supersede confirm", then(tabTo("Memories"), mid, keys("s", "down", "enter")), "swap older/newer", true},
		{"captures audit", then(tabTo("Captures"), keys("A")), "close audit", true},
		// An empty result of a filter: the keys still act (or say why not).
		{"memories filter no match", then(tabTo("Memories"), keys("/"), func(t *testing.T, m Model) Model { return typeText(t, m, "zzqxj 없는말") }, keys("enter")), "clear filter", true},
		{"captures filter no match", then(tabTo("Captures"), keys("/"), func(t *testing.T, m Model) Model { return typeText(t, m, "zzqxj 없는말") }, keys("enter")), "clear text filter", true},
		{"curate filter no match", then(tabTo("Curate"), keys("/"), func(t *testing.T, m Model) Model { return typeText(t, m, "zzqxj 없는말") }, keys("enter")), "clear filter", true},
	}
}

// walkModes checks every mode: the setup reaches it, every key listed
// acts, no two keys are one palette action, and esc leaves a sub-view.
func walkModes(t *testing.T, base Model, modes []footerMode) {
	for _, md := range modes {
		t.Run(strings.ReplaceAll(md.name, " ", "_"), func(t *testing.T) {
			m := md.setup(t, snapshot(base))
			if !hasDesc(listedBindings(m), md.want) {
				t.Fatalf("%s: the setup did not reach the mode: no %q among the keys listed:\n%s", md.name, md.want, screen(m))
			}
			checkActionIDs(t, m)
			if md.sub {
				checkEscLeaves(t, md, m)
			}
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

// checkEscLeaves: esc in a sub-view, a dialog or an input leaves it — the
// frame changes and the key that named the mode is no longer listed.
func checkEscLeaves(t *testing.T, md footerMode, m Model) {
	t.Helper()
	before := m.View().Content
	after := drive(t, snapshot(m), keyPress("esc"))
	if after.View().Content == before || hasDesc(listedBindings(after), md.want) {
		t.Errorf("%s: esc does not leave it (%q still listed):\n%s", md.name, md.want, screen(after))
	}
}

// The second confirmation of rolling back a whole capture run lists
// exactly the keys that work there: Y rolls back, esc/n cancel, and the
// first confirmation's enter and y do nothing (the dialog stays).
func TestRollbackForceListsWhatWorks(t *testing.T) {
	eng, db := openDemo(t)
	m := drive(t, renderModel(t, eng, db, 120, 40), keyPress("3"))
	m = keys("H", "G", "u", "y")(t, m)
	if d := m.curate().dlg; d == nil || d.kind != "rollback-force" {
		t.Fatalf("H G u y did not reach the second confirmation:\n%s", screen(m))
	}
	var listed []string
	for _, b := range m.curate().KeyBindings() {
		listed = append(listed, b.Help().Key+" "+b.Help().Desc)
	}
	if got := strings.Join(listed, ", "); got != "Y roll back, esc/n cancel" {
		t.Errorf("the second confirmation lists %q, want Y and esc/n only", got)
	}
	for _, k := range []string{"enter", "y"} {
		if after := drive(t, snapshot(m), keyPress(k)); after.curate().dlg == nil || after.curate().dlg.kind != "rollback-force" {
			t.Errorf("%s, which the second confirmation does not list, closed it", k)
		}
	}
	for _, k := range []string{"esc", "n"} {
		after := drive(t, snapshot(m), keyPress(k))
		if after.curate().dlg != nil || !strings.Contains(after.curate().status, "cancelled") {
			t.Errorf("%s did not cancel the second confirmation (status %q)", k, after.curate().status)
		}
	}
}
