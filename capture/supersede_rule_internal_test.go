package capture

import (
	"strings"
	"testing"
)

// TestMarkerLiteralsNeverHideAMatch: the literal prefilter of the change
// markers skips a pattern only when it cannot match — on every message of
// the demo and the rule's own examples, the first marker found with the
// prefilter is the first found without it.
func TestMarkerLiteralsNeverHideAMatch(t *testing.T) {
	msgs, _, _ := loadDemo(t)
	texts := []string{"We migrated the store from MySQL to Postgres.", "I'm NOT ANY MORE at Naver", "Nowadays I cycle", "THESE DAYS I run",
		"우리 더 이상 거기 안 살아", "새 차 샀어", "요즘은 아이폰 써", "Upgraded to a Pixel 9", "I Changed my editor to Helix"}
	for _, m := range msgs {
		texts = append(texts, m.Text)
	}
	r := newSupersedeRule()
	for _, mk := range r.markers {
		if len(mk.lits) == 0 {
			t.Fatalf("marker %q has no literals", mk.name)
		}
	}
	slow := func(text string) string {
		for _, m := range r.markers {
			if m.re.MatchString(text) {
				return m.name
			}
		}
		return ""
	}
	for _, text := range texts {
		got := ""
		for i := range r.markers {
			m := &r.markers[i]
			if containsAny(strings.ToLower(text), m.lits) && m.re.MatchString(text) {
				got = m.name
				break
			}
		}
		if want := slow(text); got != want {
			t.Errorf("%q: with the prefilter %q, without %q", text, got, want)
		}
	}
}
