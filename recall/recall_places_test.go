package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
)

// Romanised places: a Latin query word that is no English word meets the
// Hangul word that sounds the same wherever the query puts it and in any
// case ("Busan", "busan", "Haeundae"), and an English memory's place is
// found from its Hangul form. A query whose romanised word no memory
// sounds like, or whose words are English, expands nothing.
func TestRomanisedPlacesAcrossScripts(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	mk := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-3 * day)})
	}
	mk("busan", "지난 주말에 부산 다녀왔어. 해운대 바다가 정말 예뻤어")
	mk("chungju", "충주에서 산 사과가 진짜 달았어")
	mk("jeonju", "We had bibimbap for lunch in Jeonju before the train home")
	for i := range 40 {
		mk(fmt.Sprintf("filler%d", i), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", i))
	}
	for _, c := range []struct {
		query, want, note string
	}{
		{"Busan trip last weekend", "busan", "busan → 부산"},
		{"when was I in haeundae", "busan", "→ 해운대"}, // the index stems it: haeunda
		{"Chungju", "chungju", "chungju → 충주"},
		{"전주에서 뭐 먹었지?", "jeonju", "전주 → jeonju"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, ReadOnly: true})
		if note := tr.Stage("preprocess").Notes["name_expansions"]; !strings.Contains(note, c.note) {
			t.Errorf("%q: name_expansions = %q, want %q", c.query, note, c.note)
		}
		if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, c.want) {
			t.Errorf("%q: survivors %v, want %s", c.query, got, c.want)
		}
	}
	for _, q := range []string{"Daegu weather tomorrow", "the garden hose leaks"} {
		tr := enginetest.Recall(t, e, engine.Query{Text: q, At: now, ReadOnly: true})
		if note := tr.Stage("preprocess").Notes["name_expansions"]; note != "" {
			t.Errorf("%q: name_expansions = %q, want none", q, note)
		}
		if got := enginetest.SurvivorKeys(tr); len(got) != 0 {
			t.Errorf("%q: survivors %v, want none", q, got)
		}
	}
}
