package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/testdata/storetest"
	"memtrace/recall"
	"memtrace/store"
)

// chungjuKeys are the demo messages about the Chungju trip and its apples
// (testdata/demo_labels.json "association").
var chungjuKeys = map[string]bool{"m0160": true, "m0162": true, "m0216": true, "m0218": true, "m0308": true, "m0441": true}

// openDemo builds the demo database from testdata/demo.jsonl through the
// real capture pipeline into a SQLite file in t.TempDir().
func openDemo(t *testing.T) (*engine.Engine, *store.DB) {
	t.Helper()
	clock := func() time.Time { return demoNow }
	db := storetest.MustOpenClock(t, clock)
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var msgs []engine.Message
	if _, err := capture.ReadMessages(f, func(_ int, m engine.Message) error {
		msgs = append(msgs, m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := capture.CaptureBatch(ctx, eng, msgs); err != nil {
		t.Fatal(err)
	}
	return eng, db
}

func newTestTrace(eng *engine.Engine, db engine.Store, w, h int) tracePane {
	styles := NewStyles(true, true)
	c := &common{ctx: context.Background(), styles: &styles, res: &resources{},
		deps: Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}}
	return newTracePane(c).SetSize(w, h).(tracePane)
}

// keyMsgs turns "/", "enter", "esc" and plain text into key presses.
func keyMsgs(keys ...string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, k := range keys {
		switch k {
		case "enter":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		case "esc":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEscape})
		default:
			for _, r := range k {
				out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		}
	}
	return out
}

// pressTrace sends keys to the pane and delivers what its commands return (the
// recall results) the way the program would, waiting for each.
func pressTrace(t *testing.T, p tracePane, keys ...string) tracePane {
	t.Helper()
	for _, k := range keyMsgs(keys...) {
		next, cmd := p.Update(k)
		p = deliver(t, next.(tracePane), cmd)
	}
	return p
}

func deliver(t *testing.T, p tracePane, cmd tea.Cmd) tracePane {
	t.Helper()
	if cmd == nil {
		return p
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			p = deliver(t, p, c)
		}
	case paneMsg:
		if msg.To != paneTrace {
			t.Fatalf("reply for pane %q, want trace", msg.To)
		}
		next, cmd := p.Update(msg.Msg)
		p = deliver(t, next.(tracePane), cmd)
	}
	return p
}

func view(p tracePane) string { return ansi.Strip(p.View()) }

func TestTraceOnDemo(t *testing.T) {
	eng, db := openDemo(t)

	t.Run("QueryShowsElevenStages", func(t *testing.T) {
		p := newTestTrace(eng, db, 100, 28)
		p = pressTrace(t, p, "/")
		if !p.Typing() {
			t.Fatal("/ did not focus the query input")
		}
		p = pressTrace(t, p, "충주 사과", "enter")
		if p.err != "" || p.trace == nil {
			t.Fatalf("no trace: %q", p.err)
		}
		if p.Typing() {
			t.Error("enter left the query input focused")
		}
		if !p.trace.ReadOnly || !p.trace.At.Equal(demoNow) {
			t.Errorf("recall read-only %v at %v, want read-only at %v", p.trace.ReadOnly, p.trace.At, demoNow)
		}
		v := view(p)
		if len(p.trace.Stages) != len(engine.StageNames) {
			t.Fatalf("%d stages, want %d", len(p.trace.Stages), len(engine.StageNames))
		}
		for i, s := range p.trace.Stages {
			re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(itoa(i)) + ` ` + s.Name + `\s+` + itoa(s.In) + `\s+` + itoa(s.Out) + `\b`)
			if !re.MatchString(v) {
				t.Errorf("stage %d %s with in %d out %d not in the view:\n%s", i, s.Name, s.In, s.Out, v)
			}
		}
		var apples []string
		for _, s := range p.trace.Survivors {
			if chungjuKeys[s.Key] {
				apples = append(apples, s.Key)
				if !strings.Contains(v, s.Key) {
					t.Errorf("survivor %s is not listed in the budget stage", s.Key)
				}
			}
		}
		if len(apples) == 0 {
			t.Errorf("no Chungju memory survives %q: %+v", "충주 사과", p.trace.Survivors)
		}
		if want := "prompt "; !strings.Contains(v, itoa(p.trace.PromptChars)+" / "+itoa(p.trace.Budget)+" chars") || !strings.Contains(v, want) {
			t.Errorf("no budget meter with %d / %d chars:\n%s", p.trace.PromptChars, p.trace.Budget, v)
		}
		// Read-only: the recall recorded no access.
		for _, s := range p.trace.Survivors {
			if m, _ := eng.Memory(s.ID); m.AccessCount != 0 {
				t.Errorf("memory %d access count %d after a read-only recall", s.ID, m.AccessCount)
			}
		}
	})

	t.Run("ItemsShowScoresAndDropReasons", func(t *testing.T) {
		p := pressTrace(t, newTestTrace(eng, db, 200, 48), "i", "충주 사과", "enter")
		// The first stage that dropped something, e.g. rerank's relevance floor.
		var dropped *engine.TraceItem
		for si, st := range p.trace.Stages {
			for i := range st.Items {
				if dropped == nil && st.Items[i].Dropped != "" {
					dropped, p.stage = &p.trace.Stages[si].Items[i], si
				}
			}
		}
		if dropped == nil {
			t.Fatal("no stage dropped anything for 충주 사과 (33 candidates, 4 survivors expected)")
		}
		p = pressTrace(t, p, "l")
		for p.stageItems()[p.item].ID != dropped.ID {
			p = pressTrace(t, p, "j")
		}
		v := view(p)
		if !strings.Contains(v, "dropped ["+string(dropped.DropKind)+"]: "+dropped.Dropped[:min(len(dropped.Dropped), 30)]) || dropped.DropKind == "" {
			t.Errorf("drop reason %q of memory %d not shown:\n%s", dropped.Dropped, dropped.ID, v)
		}
		for name, val := range dropped.Scores {
			if !strings.Contains(v, name+" "+formatScore(val)) {
				t.Errorf("score %s %s of memory %d not shown", name, formatScore(val), dropped.ID)
			}
		}
	})

	t.Run("BracketStepsTheTimeAndReruns", func(t *testing.T) {
		p := pressTrace(t, newTestTrace(eng, db, 100, 28), "/", "충주 사과", "enter")
		if !strings.Contains(view(p), "at now") {
			t.Fatalf("time label is not now:\n%s", view(p))
		}
		for i, want := range []struct {
			label string
			days  int
		}{{"+1d", 1}, {"+7d", 7}, {"+30d", 30}, {"+90d", 90}, {"+365d", 365}, {"+365d", 365}} {
			before := p.trace
			p = pressTrace(t, p, "]")
			if !strings.Contains(view(p), "at "+want.label+" → "+demoNow.AddDate(0, 0, want.days).Format("2006-01-02")) {
				t.Fatalf("step %d: label %s not shown:\n%s", i, want.label, view(p))
			}
			if p.trace == before {
				t.Errorf("step %d: ] did not re-run the recall", i)
			}
			if got := p.trace.At; !got.Equal(demoNow.AddDate(0, 0, want.days)) {
				t.Errorf("step %d: recall at %v, want now+%dd", i, got, want.days)
			}
		}
		p = pressTrace(t, p, "[")
		if !p.trace.At.Equal(demoNow.AddDate(0, 0, 90)) || !strings.Contains(view(p), "at +90d") {
			t.Errorf("[ from +365d: recall at %v, want +90d", p.trace.At)
		}
	})

	t.Run("TypedTime", func(t *testing.T) {
		p := pressTrace(t, newTestTrace(eng, db, 100, 28), "/", "충주 사과", "enter", "@", "+45d", "enter")
		want := demoNow.AddDate(0, 0, 45)
		if !p.trace.At.Equal(want) || !strings.Contains(view(p), "at @ "+want.Format(time.RFC3339)) {
			t.Errorf("typed +45d: recall at %v, want %v\n%s", p.trace.At, want, view(p))
		}
		p = pressTrace(t, p, "@", "next tuesday", "enter")
		if !strings.Contains(p.err, "bad time") || !p.trace.At.Equal(want) {
			t.Errorf("a bad time changed the override or said nothing: err %q at %v", p.err, p.trace.At)
		}
		p = pressTrace(t, p, "esc", "@", "2027-01-01T00:00:00Z", "enter")
		if want := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC); !p.trace.At.Equal(want) {
			t.Errorf("typed RFC 3339: recall at %v, want %v", p.trace.At, want)
		}
	})

	t.Run("SplitListsForgottenAt365d", func(t *testing.T) {
		// A loose question (cue_score 0.224 < engine.RecognitionCue for the
		// Chungju episodes): free recall, where forgetting shows.
		p := pressTrace(t, newTestTrace(eng, db, 200, 48), "/", "충주 시 다녀온 뒤 요즘 나눴던 얘기 기억나", "enter", "]", "]", "]", "]", "]", "s")
		if p.cmp == nil || !p.cmp.AtA.Equal(demoNow) || !p.trace.At.Equal(demoNow.AddDate(1, 0, 0)) || p.cmp.B != p.trace {
			t.Fatalf("split did not compare now with +365d")
		}
		v := view(p)
		cmp := splitOf(p.cmp)
		if len(cmp.Forgotten) == 0 {
			t.Fatalf("nothing recalled now is forgotten a year later:\n%s", v)
		}
		if !strings.Contains(v, "forgotten by +365d: "+itoa(len(cmp.Forgotten))) {
			t.Errorf("forgotten count %d not shown:\n%s", len(cmp.Forgotten), v)
		}
		later := demoNow.AddDate(1, 0, 0)
		for _, it := range cmp.Forgotten {
			m, ok := eng.Memory(it.ID)
			if !ok {
				t.Fatalf("forgotten memory %d not in the engine", it.ID)
			}
			// The forecast agrees: the memory is forgotten between now and a year on.
			if at := engine.ForgetAt(m, eng.Config()); !at.After(demoNow) || at.After(later) {
				t.Errorf("memory %d (%s) listed as forgotten by +365d, forecast %v", it.ID, it.Key, at)
			}
			if !regexp.MustCompile(`\b` + itoa(int(it.ID)) + `\s+` + it.Key + `\b`).MatchString(v) {
				t.Errorf("forgotten memory %d %s not listed:\n%s", it.ID, it.Key, v)
			}
		}
		marked := 0
		for _, it := range cmp.Now {
			if it.Mark != markForgotten {
				continue
			}
			marked++
			if !regexp.MustCompile(`✗ forgotten\s+\d+\s+` + itoa(int(it.ID)) + `\b`).MatchString(v) {
				t.Errorf("survivor %d forgotten by +365d is not marked:\n%s", it.ID, v)
			}
		}
		if marked != len(cmp.Forgotten) {
			t.Errorf("%d survivors marked forgotten, %d listed as forgotten", marked, len(cmp.Forgotten))
		}
	})

	t.Run("SplitMarksRecognisedAt90d", func(t *testing.T) {
		// "충주 사과" is what the Chungju episodes say: 90 days on they are
		// out of free recall but recognised, so nothing is forgotten and
		// the later side marks them (90 days on they are past their
		// recognition horizon: SplitListsUnrecognisableAt365d).
		p := pressTrace(t, newTestTrace(eng, db, 200, 48), "/", "충주 사과", "enter", "]", "]", "]", "]", "s")
		v := view(p)
		cmp := splitOf(p.cmp)
		if len(cmp.Forgotten) != 0 || cmp.RecognisedLater == 0 || !strings.Contains(v, "forgotten by +90d: 0") ||
			!strings.Contains(v, "recognised at +90d: "+itoa(cmp.RecognisedLater)) {
			t.Fatalf("forgotten %d, recognised %d:\n%s", len(cmp.Forgotten), cmp.RecognisedLater, v)
		}
		for _, it := range cmp.Later {
			if !it.Recognised {
				continue
			}
			if m, _ := eng.Memory(it.ID); !engine.Forgotten(m, demoNow.AddDate(0, 0, 90), eng.Config()) {
				t.Errorf("memory %d marked recognised but still in free recall 90 days on", it.ID)
			}
			if !regexp.MustCompile(`recognised\s+` + itoa(it.Rank) + `\s+` + itoa(int(it.ID)) + `\b`).MatchString(v) {
				t.Errorf("recognised memory %d is not marked:\n%s", it.ID, v)
			}
		}
	})

	t.Run("SplitListsUnrecognisableAt365d", func(t *testing.T) {
		// A year on, the same specific cue no longer finds the Chungju
		// episodes of importance 0.4: they are past their recognition
		// horizon, and the split lists them as forgotten.
		p := pressTrace(t, newTestTrace(eng, db, 200, 48), "/", "충주 사과", "enter", "]", "]", "]", "]", "]", "s")
		cmp := splitOf(p.cmp)
		later := demoNow.AddDate(1, 0, 0)
		if len(cmp.Forgotten) == 0 {
			t.Fatalf("nothing forgotten a year on:\n%s", view(p))
		}
		for _, it := range cmp.Forgotten {
			m, _ := eng.Memory(it.ID)
			if !engine.Unrecognisable(m, later, eng.Config()) {
				t.Errorf("memory %d (%s) listed as forgotten for its own words a year on, but recognisable until %v",
					it.ID, m.Key, engine.UnrecognisableAt(m, eng.Config()))
			}
		}
	})

	t.Run("OpenStoredTrace", func(t *testing.T) {
		ctx := context.Background()
		tr, err := recall.Recall(ctx, eng, engine.Query{Text: "충주 사과 엄마", At: demoNow, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(tr)
		if err := db.SaveTrace(ctx, &engine.StoredTrace{Query: tr.Query, Session: "agent-7", Source: "mcp", At: tr.At, Trace: raw}, 10); err != nil {
			t.Fatal(err)
		}
		p := pressTrace(t, newTestTrace(eng, db, 100, 28), "o")
		if v := view(p); !strings.Contains(v, "충주 사과 엄마") || !strings.Contains(v, "agent-7") {
			t.Fatalf("stored trace not listed:\n%s", v)
		}
		p = pressTrace(t, p, "enter")
		if p.trace == nil || p.trace.Query != "충주 사과 엄마" || len(p.trace.Survivors) != len(tr.Survivors) {
			t.Fatalf("stored trace not opened: %+v", p.trace)
		}
		if v := view(p); !strings.Contains(v, "stored trace #") || !strings.Contains(v, "mcp") {
			t.Errorf("the view does not say the trace is stored:\n%s", v)
		}
		// Stepping the time re-runs the stored query live, read-only.
		p = pressTrace(t, p, "]")
		if p.source != "" || p.trace.Query != "충주 사과 엄마" || !p.trace.At.After(demoNow) {
			t.Errorf("] after a stored trace: source %q query %q at %v", p.source, p.trace.Query, p.trace.At)
		}
	})

	t.Run("OpenTraceMsgSwitchesToTrace", func(t *testing.T) {
		m := newModel(context.Background(), Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true})
		m.active = 1
		at := demoNow.AddDate(0, 0, 30)
		next, cmd := m.Update(OpenTraceMsg{Query: engine.Query{Text: "충주 사과", At: at}})
		m = next.(Model)
		if p, _ := m.activePane(); p.ID() != paneTrace {
			t.Fatalf("active pane %q after OpenTraceMsg, want trace", p.ID())
		}
		var res traceResultMsg
		for _, msg := range runAll(cmd) {
			if pm, ok := msg.(paneMsg); ok {
				if r, ok := pm.Msg.(traceResultMsg); ok {
					res = r
				}
			}
		}
		if res.Trace == nil || res.Trace.Query != "충주 사과" || !res.Trace.At.Equal(at) {
			t.Fatalf("OpenTraceMsg ran %+v", res.Trace)
		}
	})
}

// runAll runs cmd and every command of a batch and returns their messages
// (a spinner tick among them takes one frame).
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func itoa(n int) string { return strconv.Itoa(n) }

// splitOf lays a comparison out as it is: each side's survivors in rank
// order, marked by the list of the comparison they are in.
func TestSplitOf(t *testing.T) {
	surv := func(ids ...int64) []engine.Survivor {
		var out []engine.Survivor
		for _, id := range ids {
			out = append(out, engine.Survivor{ID: id, Key: "k" + itoa(int(id))})
		}
		return out
	}
	ch := func(id int64, a, b int) inspector.Change {
		return inspector.Change{ID: id, Key: "k" + itoa(int(id)), RankA: a, RankB: b, RankDelta: a - b}
	}
	c := &inspector.Comparison{
		AtA: demoNow, AtB: demoNow.AddDate(0, 0, 30),
		SurvivorsA: surv(1, 2, 3, 4, 5), SurvivorsB: surv(3, 2, 6),
		Forgotten: []inspector.Change{ch(1, 1, 0)}, Left: []inspector.Change{ch(4, 4, 0)},
		Rose: []inspector.Change{ch(3, 3, 1)}, Held: []inspector.Change{ch(2, 2, 2)},
		New: []inspector.Change{ch(6, 0, 3)},
	}
	c.New[0].RecognisedB = true
	notYet := ch(5, 5, 0)
	notYet.DropKind = engine.DropNotYetCreated
	c.Left = append(c.Left, notYet)
	m := splitOf(c)
	var now, later []string
	for _, r := range m.Now {
		now = append(now, itoa(int(r.ID))+" "+itoa(r.Rank)+" "+markText(r, false))
	}
	for _, r := range m.Later {
		later = append(later, itoa(int(r.ID))+" "+itoa(r.Rank)+" "+markText(r, true))
	}
	if got := strings.Join(now, "; "); got != "1 1 ✗ forgotten; 2 2 =; 3 3 ↑ to 1; 4 4 − left; 5 5 not yet" {
		t.Errorf("now side: %s", got)
	}
	if got := strings.Join(later, "; "); got != "3 1 ↑ from 3; 2 2 =; 6 3 + new" {
		t.Errorf("later side: %s", got)
	}
	if m.RecognisedLater != 1 || m.AtLater != "2026-08-20" || len(m.Forgotten) != 1 || len(m.Left) != 1 || len(m.NotYet) != 1 || m.NotYet[0].ID != 5 {
		t.Errorf("split model: %+v", m)
	}
}

func TestTimeOverride(t *testing.T) {
	now := demoNow
	o := timeOverride{}
	for _, want := range []string{"+1d", "+7d", "+30d", "+90d", "+365d", "+365d"} {
		o = o.next(now)
		if o.label() != want {
			t.Errorf("] gives %s, want %s", o.label(), want)
		}
	}
	for tc, want := range map[string]struct {
		label string
		at    time.Time
	}{
		"+30d":                      {"+30d", now.AddDate(0, 0, 30)},
		"now":                       {"now", now},
		"+45d":                      {"@ 2026-09-04T09:00:00Z", now.AddDate(0, 0, 45)},
		"-2d":                       {"@ 2026-07-19T09:00:00Z", now.AddDate(0, 0, -2)},
		"2027-01-01":                {"@ 2027-01-01T00:00:00Z", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
		"2026-08-01T12:00:00+09:00": {"@ 2026-08-01T03:00:00Z", time.Date(2026, 8, 1, 3, 0, 0, 0, time.UTC)},
	} {
		o, err := parseOverride(tc, now)
		if err != nil || o.label() != want.label || !o.at(now).Equal(want.at) {
			t.Errorf("parseOverride(%q) = %s at %v, %v; want %s at %v", tc, o.label(), o.at(now), err, want.label, want.at)
		}
	}
	for _, bad := range []string{"+3x", "tomorrow", "+d", "2027-13-01"} {
		if _, err := parseOverride(bad, now); err == nil {
			t.Errorf("parseOverride(%q) accepted", bad)
		}
	}
	// From a typed time, ] and [ go to the neighbouring steps.
	typed := timeOverride{custom: now.AddDate(0, 0, 45)}
	if got := typed.next(now).label(); got != "+90d" {
		t.Errorf("] from +45d: %s, want +90d", got)
	}
	if got := typed.prev(now).label(); got != "+30d" {
		t.Errorf("[ from +45d: %s, want +30d", got)
	}
}

func TestTraceTextIsNeutralised(t *testing.T) {
	evil := "\x1b]0;pwned\x07 충주 \x1b[2J 사과 \u202eevil"
	tr := &engine.Trace{Query: "사과", At: demoNow, K: 8, Budget: 2000, Prompt: "- " + evil, PromptChars: 40,
		Survivors: []engine.Survivor{{ID: 7, Key: "m0233", Text: evil}}}
	for _, name := range engine.StageNames {
		tr.Stages = append(tr.Stages, engine.StageTrace{Name: name, In: 1, Out: 1,
			Items: []engine.TraceItem{{ID: 7, Key: "m0233", Text: evil, Scores: map[string]float64{"final_score": 0.5}}}})
	}
	p := newTestTrace(nil, nil, 100, 28)
	p.trace = tr
	for _, mode := range []string{"items", "prompt"} {
		v := p.View()
		if mode == "prompt" {
			v = pressTrace(t, p, "p").View()
		}
		for _, raw := range []string{"\x1b]0;", "\x07", "\x1b[2J", "\u202e"} {
			if strings.Contains(v, raw) {
				t.Errorf("%s view passes %q through to the terminal", mode, raw)
			}
		}
		if !strings.Contains(v, "␛]0;pwned␇") {
			t.Errorf("%s view does not show the neutralised sequence:\n%s", mode, v)
		}
	}
}

// A split back in time (now against 2026-02-01, before the demo's move to
// Seoul): the survivors now that did not exist then are "not yet" written,
// not "left … still remembered"; each of them was created after that time
// and every one still called left was created before it.
func TestTraceSplitBackInTime(t *testing.T) {
	eng, db := openDemo(t)
	m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 120, 40)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "where do I live")
	m = drive(t, m, press("enter"), press("@"))
	m = typeText(t, m, "2026-02-01")
	m = drive(t, m, press("enter"), press("s"))
	p := m.trace()
	if !p.split || p.cmp == nil {
		t.Fatalf("no split view:\n%s", screen(m))
	}
	at := p.cmp.AtB
	sm := splitOf(p.cmp)
	if len(sm.NotYet) == 0 {
		t.Fatalf("no survivor now is marked not yet written at %v:\n%s", at, screen(m))
	}
	created := func(id int64) time.Time {
		mem, ok := eng.Memory(id)
		if !ok {
			t.Fatalf("memory %d not found", id)
		}
		return mem.CreatedAt
	}
	for _, ch := range sm.NotYet {
		if !created(ch.ID).After(at) {
			t.Errorf("memory %d is marked not yet written, but was created %v, before %v", ch.ID, created(ch.ID), at)
		}
	}
	for _, ch := range sm.Left {
		if created(ch.ID).After(at) {
			t.Errorf("memory %d is called left (still remembered), but was created %v, after %v", ch.ID, created(ch.ID), at)
		}
	}
	notYet := 0
	for _, r := range sm.Now {
		if markText(r, false) == "not yet" {
			notYet++
		}
	}
	if notYet != len(sm.NotYet) {
		t.Errorf("%d rows marked not yet on the now side, %d not yet written", notYet, len(sm.NotYet))
	}
	all := stripped(strings.Join(p.splitView(), "\n"))
	if want := fmt.Sprintf("not yet written at %s: %d", p.override.label(), len(sm.NotYet)); !strings.Contains(all, want) {
		t.Errorf("no %q line in the split:\n%s", want, all)
	}
}
