package ui

import (
	"context"
	"io/fs"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// Deps is what the UI needs from the rest of the program.
type Deps struct {
	// Engine (required) runs every write, so its caches and indexes
	// follow, and is refreshed after a rollback.
	Engine *engine.Engine
	// Store (required) is the engine's store, read for pages of memories,
	// captures and audit rows.
	Store engine.Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OpenStore opens (creating) a database file: the Golden tab builds a
	// set's fixture in a fresh temporary database with it. The CLI passes
	// store.Open; nil: sets with a fixture cannot run in the UI.
	OpenStore func(ctx context.Context, path string) (engine.Store, error)
	// Changes, when set, is signalled when the engine applied writes made
	// elsewhere (engine.Changes; the CLI's engine follows PostgreSQL
	// notifications and SQLite's data_version): every tab reloads, as
	// after a write of its own.
	Changes <-chan struct{}
	// NoColor removes every colour (the NO_COLOR convention). RunOpening
	// sets it from the environment.
	NoColor bool
	// DBPath names the open database in headers (the Golden tab says which
	// database a set runs on); "" when unknown.
	DBPath string
	// Sets, when set, holds golden sets built into the binary, laid out as
	// the repository does (golden/demo.yaml beside ../demo.jsonl): the
	// Golden tab opens its default set from there when the working
	// directory, its parents and the executable's have none
	// (extractSets copies them to the user's cache first).
	Sets fs.FS
}

// common is shared by the root and every pane: dependencies, styles, the
// context the program runs under.
type common struct {
	ctx    context.Context
	deps   Deps
	styles *Styles
	// res holds what panes opened for the program's lifetime (Golden's
	// fixture databases); the program closes it on exit.
	res *resources
	// goldenSet is the set file the Golden tab has loaded; the Trace tab
	// offers it when a trace becomes a probe. Written by the Golden pane
	// when a set loads.
	goldenSet string
}

func (c *common) now() time.Time {
	if c.deps.Now != nil {
		return c.deps.Now()
	}
	return time.Now()
}

// paneID names a pane; envelopes carry it so that an async result reaches
// the pane that asked for it even after the user switched tabs.
type paneID string

// Pane names, in tab order (newPanes).
const (
	paneTrace    paneID = "trace"
	paneGolden   paneID = "golden"
	paneCurate   paneID = "curate"
	paneMemories paneID = "memories"
	paneCaptures paneID = "captures"
)

// paneMsg is the envelope of an async result: To names the pane.
type paneMsg struct {
	To  paneID
	Msg tea.Msg
}

// pane is one tab. Panes are plain values; Update returns the pane itself
// after the change, so the root stores it back.
type pane interface {
	ID() paneID
	Title() string
	SetSize(w, h int) pane
	Update(msg tea.Msg) (pane, tea.Cmd)
	View() string
	// KeyBindings are the pane's keys for the footer and the help overlay.
	KeyBindings() []key.Binding
	// Typing reports that a text input has focus: printable keys belong to
	// the pane, not to the global key map.
	Typing() bool
	// Busy reports that a load or a write is in flight (the spinner shows).
	Busy() bool
}

// newPanes builds every tab in tab order (Trace, Golden, Curate, Memories,
// Captures). A pane exists here or has no tab.
func newPanes(c *common) []pane {
	return []pane{
		newTracePane(c),
		newGoldenPane(c),
		newCuratePane(c),
		newMemoriesPane(c),
		newCapturesPane(c),
	}
}

// startMsg tells every pane that the program runs: time for the first load.
type startMsg struct{}

// storeChangedMsg tells every pane but From that a write of the TUI
// changed the store (a curator action, an approval, a rollback): panes that
// show stored state reload, so that, for one, the Curate history lists the
// batch a Memories-tab action just made.
type storeChangedMsg struct{ From paneID }

// storeChanged is the Cmd a pane returns after a write that committed.
func storeChanged(from paneID) tea.Cmd {
	return func() tea.Msg { return storeChangedMsg{From: from} }
}

// send wraps a message for the pane to.
func send(to paneID, msg tea.Msg) tea.Msg { return paneMsg{To: to, Msg: msg} }

// newTextInput is a one-line input with the prompt, placeholder and the
// theme's input styles.
func newTextInput(c *common, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetStyles(c.styles.Input)
	return in
}

// updateFocused passes msg (a cursor blink, a paste) to in when it has the
// focus.
func updateFocused(in *textinput.Model, msg tea.Msg) tea.Cmd {
	if !in.Focused() {
		return nil
	}
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	return cmd
}
