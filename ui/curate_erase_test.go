package ui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/recall"
)

// The Curate tab's erase request by subject on the demo database, at
// 80×24 and 120×40: E, "지연" (the user's sister), the candidates the
// recall's words find with their scores; the curator confirms one, the
// first question, then the count — a wrong count erases nothing — and the
// erasure's report. Only the confirmed memory becomes a tombstone, with the
// reason; the others stay as they were. The screens are golden files
// (go test ./ui -run TestCurateEraseGolden -update).
func TestCurateEraseGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			eng, db := openDemo(t)
			ctx := context.Background()
			shot := func(name string, m Model) { goldenShot(t, name, m, w, h) }
			m := goTo(t, renderModel(t, eng, db, w, h), "Curate")
			m = drive(t, m, press("E"))
			if !strings.Contains(screen(m), "everything about:") {
				t.Fatalf("E did not open the erase request:\n%s", screen(m))
			}
			m = typeText(t, m, "지연")
			m = drive(t, m, press("enter"))
			v := m.curate().erase
			if v == nil || v.stage != erasePick || len(v.cands) < 2 {
				t.Fatalf("the recall for 지연 found %+v", v)
			}
			for _, c := range v.cands {
				if !strings.Contains(c.Content, "지연") {
					t.Errorf("candidate %d does not name 지연: %q", c.ID, c.Content)
				}
			}
			target, others := v.cands[0], v.cands[1:]
			shot("pick", m)
			m = drive(t, m, press("space"))
			if n := m.curate().erase.count(); n != 1 {
				t.Fatalf("%d confirmed after one space", n)
			}
			m = drive(t, m, press("enter"))
			shot("confirm", m)
			m = drive(t, m, press("y"))
			m = typeText(t, m, "7")
			m = drive(t, m, press("enter"))
			if v := m.curate().erase; v.stage != erasePick || !strings.Contains(v.err, "nothing erased") {
				t.Fatalf("a wrong count: stage %d, %q", v.stage, v.err)
			}
			if got, _ := db.GetMemory(ctx, target.ID); got.Status == engine.StatusErased {
				t.Fatal("a wrong count erased the memory")
			}
			m = drive(t, m, press("enter"), press("y"))
			shot("count", m)
			m = typeText(t, m, "1")
			m = drive(t, m, press("enter"))
			shot("done", m)

			got, err := db.GetMemory(ctx, target.ID)
			if err != nil || got.Status != engine.StatusErased || got.Content != engine.ErasedText {
				t.Fatalf("memory %d after the erasure: %+v %v", target.ID, got, err)
			}
			if ts, err := curate.Tombstones(ctx, db, target.ID); err != nil || len(ts) != 1 || !strings.Contains(ts[0].Reason, "지연") {
				t.Errorf("tombstone %+v %v", ts, err)
			}
			if cached, ok := eng.MemoryByKey(target.Key); !ok || cached.Status != engine.StatusErased {
				t.Errorf("the engine's cache still has memory %d as %+v", target.ID, cached)
			}
			for _, o := range others {
				if g, _ := db.GetMemory(ctx, o.ID); g.Status == engine.StatusErased || g.Content != o.Content {
					t.Errorf("memory %d was not confirmed but changed: %+v", o.ID, g)
				}
			}
			if m = drive(t, m, press("esc")); m.curate().erase != nil {
				t.Error("esc did not close the report")
			}
		})
	}
}

// The same request through the whole program (teatest): 3 opens Curate,
// E the request; the curator confirms every candidate and answers both
// questions; the report says it cannot be rolled back, and the store
// holds only tombstones of them.
func TestCurateEraseTeatest(t *testing.T) {
	eng, db := openDemo(t)
	tm := teatest.NewTestModel(t, newModel(context.Background(), Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}),
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	contains := func(s string) func([]byte) bool {
		return func(b []byte) bool { return bytes.Contains(b, []byte(s)) }
	}
	wait := teatest.WithDuration(10 * time.Second)
	teatest.WaitFor(t, tm.Output(), contains("press / or i to type a query"), wait)
	tm.Type("3")
	teatest.WaitFor(t, tm.Output(), contains("retype 0"), wait)
	tm.Type("E")
	teatest.WaitFor(t, tm.Output(), contains("everything about:"), wait)
	tm.Type("지연")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("named by its words"), wait)
	ctx := context.Background()
	cands, err := curate.SubjectCandidates(ctx, db, mustRecall(t, eng, "지연"))
	if err != nil || len(cands) == 0 {
		t.Fatalf("candidates %v %v", cands, err)
	}
	for range cands {
		tm.Type(" ")
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("It cannot be rolled back."), wait)
	tm.Type("y")
	teatest.WaitFor(t, tm.Output(), contains("Last question"), wait)
	tm.Type(fmt.Sprint(len(cands)))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), contains("it cannot be rolled back"), wait)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	for _, c := range cands {
		if g, err := db.GetMemory(ctx, c.ID); err != nil || g.Status != engine.StatusErased {
			t.Errorf("memory %d: %+v %v", c.ID, g, err)
		}
	}
}

func mustRecall(t *testing.T, eng *engine.Engine, subject string) *engine.Trace {
	t.Helper()
	tr, err := recall.Recall(context.Background(), eng, curate.SubjectQuery(subject, eng.Now()))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
