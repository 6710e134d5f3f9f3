package ui

import (
	"strings"
	"testing"
)

// / filters the probe list by id or query words and by result/change; an
// unknown value is said in the bar and selects nothing; esc clears.
func TestGoldenFilter(t *testing.T) {
	g := newGoldenHarness(t, demoSet, 100, 30)
	g.loaded()
	all := len(g.p.probes.rows)
	g.keys("/")
	if !g.p.Typing() {
		t.Fatal("/ did not focus the filter")
	}
	g.typeText("greeting")
	if n := len(g.p.probes.rows); n == 0 || n == all {
		t.Fatalf("'greeting' keeps %d of %d rows", n, all)
	}
	for _, r := range g.p.probes.rows {
		if !strings.Contains(strings.ToLower(r.ID+" "+r.Query), "greeting") {
			t.Errorf("row %s does not match 'greeting'", r.ID)
		}
	}
	if !strings.Contains(g.view(), "/ greeting") {
		t.Errorf("the bar is not on screen:\n%s", g.view())
	}
	g.keys("enter")
	if g.p.Typing() {
		t.Fatal("enter did not leave the filter")
	}
	g.keys("esc")
	if n := len(g.p.probes.rows); n != all {
		t.Fatalf("esc: %d rows, want %d", n, all)
	}
	g.keys("/")
	g.typeText("result:fial")
	if !strings.Contains(g.view(), "unknown result fial: use pass, fail, error, missing, notrun") || len(g.p.probes.rows) != all {
		t.Errorf("unknown value: %d rows\n%s", len(g.p.probes.rows), g.view())
	}
	g.keys("esc")
	g.keys("/")
	g.typeText("result:pass")
	if n := len(g.p.probes.rows); n != all {
		t.Errorf("result:pass keeps %d of %d baseline passes", n, all)
	}
	g.keys("esc", "/")
	g.typeText("result:fail")
	if n := len(g.p.probes.rows); n != 0 {
		t.Errorf("result:fail keeps %d rows of a baseline that passes", n)
	}
}
