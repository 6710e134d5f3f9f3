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
)

// demoNow is the Trace tests' clock: the morning after the demo
// conversation ends (2026-07-20), as `memtrace demo` sets it.
var demoNow = time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)

// TestTeatestSmoke runs the whole program headless (teatest) on a real
// SQLite database: the Trace tab comes first, a query runs and renders its
// stages, ] moves the time override, 4 opens Memories, q quits.
func TestTeatestSmoke(t *testing.T) {
	clock := func() time.Time { return demoNow }
	db := storetest.MustOpenClock(t, clock)
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"충주 사과가 정말 달고 맛있었어.", "We're going with SQLite over Postgres for memtrace."} {
		m := &engine.Memory{Content: text, Kind: engine.KindFact, Type: "note", Importance: 0.6, CreatedAt: demoNow.AddDate(0, 0, -3)}
		if err := eng.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}

	tm := teatest.NewTestModel(t, newModel(context.Background(), Deps{Engine: eng, Store: db, Now: clock, NoColor: true}),
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(5 * time.Second)
	teatest.WaitFor(t, tm.Output(), contains("press / or i to type a query"), wait)
	tm.Type("/")
	tm.Type("사과")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("chars ("), wait)
	tm.Type("]")
	// "+1d" is on the time row all along ("[now] +1d +7d …"); only the
	// selected step is bracketed. The renderer writes changed cells only,
	// and every cell of "[now] +1d" changes on the way to "now [+1d]", so
	// the new run reaches the output whole. (The recall at +1d itself is
	// checked on the final model below.)
	teatest.WaitFor(t, tm.Output(), contains("now [+1d]"), wait)
	tm.Type("4")
	teatest.WaitFor(t, tm.Output(), contains("CONTENT"), wait)
	tm.Type("q")

	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if p, _ := final.activePane(); p.Title() != "Memories" {
		t.Errorf("active tab at the end: %s, want Memories", p.Title())
	}
	tr := final.panes[0].(tracePane)
	if tr.trace == nil || len(tr.trace.Stages) != len(engine.StageNames) {
		t.Fatalf("the Trace tab holds no 11-stage trace: %+v", tr.trace)
	}
	if want := demoNow.AddDate(0, 0, 1); !tr.trace.At.Equal(want) || tr.trace.Query != "사과" {
		t.Errorf("last recall %q at %v, want 사과 at %v", tr.trace.Query, tr.trace.At, want)
	}
}
