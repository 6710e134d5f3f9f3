package engine_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

var t0 = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func TestHalfLife(t *testing.T) {
	cfg := engine.DefaultConfig()
	tests := []struct {
		name string
		m    engine.Memory
		want time.Duration
	}{
		{"episode, importance 0, never accessed", engine.Memory{Kind: engine.KindEpisode}, 14 * day},
		{"fact, importance 0", engine.Memory{Kind: engine.KindFact}, 180 * day},
		{"episode, importance 1 triples H", engine.Memory{Kind: engine.KindEpisode, Importance: 1}, 42 * day},
		{"fact, importance 0.5, 1 access", engine.Memory{Kind: engine.KindFact, Importance: 0.5, AccessCount: 1},
			time.Duration(float64(360*day) * (1 + math.Log(2)))},
		{"unknown kind ages like an episode", engine.Memory{Kind: "note"}, 14 * day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := engine.HalfLife(tt.m, cfg)
			if d := got - tt.want; d < -time.Second || d > time.Second {
				t.Errorf("HalfLife = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDecayHalvesEveryHalfLife(t *testing.T) {
	cfg := engine.DefaultConfig()
	m := engine.Memory{Kind: engine.KindEpisode, Importance: 0.5, CreatedAt: t0}
	h := engine.HalfLife(m, cfg) // 28 days
	for _, tt := range []struct {
		at   time.Time
		want float64
	}{
		{t0.Add(-day), 1}, // before the anchor: not decayed
		{t0, 1},
		{t0.Add(h), 0.5},
		{t0.Add(2 * h), 0.25},
		{t0.Add(3 * h), 0.125},
	} {
		if got := engine.Decay(m, tt.at, cfg); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Decay at %v = %v, want %v", tt.at.Sub(t0), got, tt.want)
		}
	}
	// Decay counts from the last access, not from creation.
	m.LastAccessedAt = t0.Add(h)
	if got := engine.Decay(m, t0.Add(h), cfg); got != 1 {
		t.Errorf("decay right after an access = %v, want 1", got)
	}
}

func TestForgetAtFactsOutliveEpisodes(t *testing.T) {
	cfg := engine.DefaultConfig()
	ep := engine.Memory{Kind: engine.KindEpisode, Importance: 0.4, CreatedAt: t0}
	fact := engine.Memory{Kind: engine.KindFact, Importance: 0.4, CreatedAt: t0}
	// H_ep = 14d × 1.8 = 25.2d; Δt* = 25.2d × log2(0.4/0.05) = 75.6d.
	if got, want := engine.ForgetAt(ep, cfg), t0.Add(time.Duration(75.6*float64(day))); absDur(got.Sub(want)) > time.Minute {
		t.Errorf("ForgetAt(episode) = %v, want %v", got, want)
	}
	// H_fact = 180d × 1.8 = 324d; Δt* = 972d.
	if got, want := engine.ForgetAt(fact, cfg), t0.Add(972*day); absDur(got.Sub(want)) > time.Minute {
		t.Errorf("ForgetAt(fact) = %v, want %v", got, want)
	}
	// Importance and accesses both postpone forgetting.
	important := ep
	important.Importance = 0.9
	used := ep
	used.AccessCount = 5
	for _, m := range []engine.Memory{important, used} {
		if !engine.ForgetAt(m, cfg).After(engine.ForgetAt(ep, cfg)) {
			t.Errorf("ForgetAt(%+v) not later than the plain episode's", m)
		}
	}
}

func TestForgetAtIsTheStep(t *testing.T) {
	cfg := engine.DefaultConfig()
	for _, m := range []engine.Memory{
		{Kind: engine.KindEpisode, Importance: 0.3, CreatedAt: t0},
		{Kind: engine.KindFact, Importance: 0.7, CreatedAt: t0, LastAccessedAt: t0.Add(40 * day), AccessCount: 3},
	} {
		at := engine.ForgetAt(m, cfg)
		if engine.Forgotten(m, at.Add(-day), cfg) {
			t.Errorf("%v %v: forgotten a day before ForgetAt %v", m.Kind, m.Importance, at)
		}
		if !engine.Forgotten(m, at.Add(day), cfg) {
			t.Errorf("%v %v: remembered a day after ForgetAt %v", m.Kind, m.Importance, at)
		}
	}
}

func TestForgetAtLowImportanceIsImmediate(t *testing.T) {
	cfg := engine.DefaultConfig()
	m := engine.Memory{Kind: engine.KindFact, Importance: 0.05, CreatedAt: t0}
	if got := engine.ForgetAt(m, cfg); !got.Equal(t0) {
		t.Errorf("ForgetAt = %v, want the creation time %v", got, t0)
	}
	if !engine.Forgotten(m, t0.Add(time.Hour), cfg) {
		t.Error("importance at the threshold: not forgotten an hour after creation")
	}
	below := m
	below.Importance = 0.01
	if !engine.Forgotten(below, t0, cfg) || !engine.ForgetAt(below, cfg).Equal(t0) {
		t.Error("importance below the threshold: not forgotten at creation")
	}
}

func TestFinalScore(t *testing.T) {
	if got := engine.FinalScore(0.5, 0.5, 1); got != 0.5 {
		t.Errorf("FinalScore(0.5, 0.5, 1) = %v, want 0.5", got)
	}
}

// TestDecayHelpIsTheDocComment keeps `memtrace help decay` and the code's
// documentation the same text.
func TestDecayHelpIsTheDocComment(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "forgetting.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST && len(g.Specs) == 1 {
			if vs := g.Specs[0].(*ast.ValueSpec); vs.Names[0].Name == "DecayHelp" {
				doc = g.Doc.Text()
			}
		}
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if doc == "" || !strings.Contains(norm(doc), norm(engine.DecayHelp)) {
		t.Errorf("the doc comment of DecayHelp does not contain its text:\n%s", doc)
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
