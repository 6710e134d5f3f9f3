package ui

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// The opening frame is on screen while the engine opens, and the UI takes
// the terminal — at its size — once it is open.
func TestOpeningFrameThenUI(t *testing.T) {
	clock := func() time.Time { return demoNow }
	db := storetest.MustOpenClock(t, clock)
	release := make(chan struct{})
	open := func(ctx context.Context) (Deps, error) {
		<-release
		eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
		return Deps{Engine: eng, Store: db, Now: clock}, err
	}
	tm := teatest.NewTestModel(t, newOpening(context.Background(), "/data/memtrace.db", true, open),
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(5 * time.Second)
	teatest.WaitFor(t, tm.Output(), contains("opening /data/memtrace.db"), wait)
	close(release)
	teatest.WaitFor(t, tm.Output(), contains("press / or i to type a query"), wait)
	tm.Type("4")
	teatest.WaitFor(t, tm.Output(), contains("CONTENT"), wait)
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(opening)
	if final.ui == nil || final.err != nil {
		t.Fatalf("final: ui %v, err %v", final.ui != nil, final.err)
	}
	if final.ui.width != 100 || final.ui.height != 30 {
		t.Errorf("the UI started at %d×%d, want the terminal's 100×30", final.ui.width, final.ui.height)
	}
}

// A failed open ends the program with the opener's error; q during the
// open quits without waiting for it.
func TestOpeningFailsOrQuits(t *testing.T) {
	boom := errors.New("no database at /nowhere")
	tm := teatest.NewTestModel(t, newOpening(context.Background(), "/nowhere", true,
		func(context.Context) (Deps, error) { return Deps{}, boom }),
		teatest.WithInitialTermSize(80, 24))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(opening)
	if !errors.Is(final.err, boom) || final.ui != nil {
		t.Fatalf("final err %v, ui %v", final.err, final.ui != nil)
	}

	block := make(chan struct{})
	defer close(block)
	tm = teatest.NewTestModel(t, newOpening(context.Background(), "/slow", true,
		func(context.Context) (Deps, error) { <-block; return Deps{}, nil }),
		teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("opening /slow")) },
		teatest.WithDuration(5*time.Second))
	tm.Type("q")
	if final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(opening); final.ui != nil || final.err != nil {
		t.Fatalf("after q: ui %v, err %v", final.ui != nil, final.err)
	}
}
