package concept

import (
	"slices"
	"testing"
	"unicode"
)

// Every group names one thing in both languages or is an English synonym
// set; no group is a single word, no word is a phrase, and no group is
// repeated.
func TestGroupsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range Groups() {
		if len(g) < 2 {
			t.Errorf("group %v has one word", g)
		}
		for _, w := range g {
			if w == "" || slices.ContainsFunc([]rune(w), unicode.IsSpace) {
				t.Errorf("group %v: %q is not one word", g, w)
			}
		}
		k := g[0] + "|" + g[len(g)-1]
		if seen[k] {
			t.Errorf("group %v repeated", g)
		}
		seen[k] = true
	}
}

// Partners a recall relies on, both ways.
func TestKnownPartners(t *testing.T) {
	partners := func(a, b string) bool {
		for _, g := range Groups() {
			if slices.Contains(g, a) && slices.Contains(g, b) {
				return true
			}
		}
		return false
	}
	for _, p := range [][2]string{{"knee", "무릎"}, {"surfing", "서핑"}, {"subway", "지하철"}, {"autumn", "가을"}, {"grandmother", "할머니"}} {
		if !partners(p[0], p[1]) || !partners(p[1], p[0]) {
			t.Errorf("%s and %s share no group", p[0], p[1])
		}
	}
	if partners("exam", "test") {
		t.Error(`"test" joins "exam": a developer's tests are not exams`)
	}
}
