package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// The TUI on one process shows what another process captured into the
// same PostgreSQL space, without a restart or a key: the UI's engine
// listens for the space's notifications, refreshes, and Deps.Changes makes
// every tab reload.
func TestTUIShowsAnotherProcesssWrites(t *testing.T) {
	dsn := storetest.PGDSN(t)
	ctx := context.Background()
	now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	open := func() *engine.Engine {
		db := storetest.MustOpenPath(t, dsn, clock)
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	ui, other := open(), open()
	if err := ui.AddMemory(ctx, &engine.Memory{Content: "The first memory, already there when the TUI opened.", Kind: engine.KindFact, Type: "note", Importance: 0.5}, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	// What the CLI's open path does for every engine on PostgreSQL.
	refresh := func() { _ = ui.Refresh(ctx) }
	l := ui.Store().(*store.DB).StartListening(ctx, func(store.Notification) { refresh() }, refresh)
	defer l.Stop()
	tm := teatest.NewTestModel(t, newModel(ctx, Deps{Engine: ui, Store: ui.Store(), Now: clock, NoColor: true, Changes: ui.Changes()}),
		teatest.WithInitialTermSize(120, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(10 * time.Second)
	tm.Type(":tab memories")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("already there when"), wait)
	if err := other.AddMemory(ctx, &engine.Memory{Content: "다른 호스트에서 방금 저장한 기억: the deploy key rotates on Fridays.", Kind: engine.KindFact, Type: "note", Importance: 0.5}, engine.Actor{Name: "host-b"}); err != nil {
		t.Fatal(err)
	}
	teatest.WaitFor(t, tm.Output(), contains("the deploy key"), wait)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
