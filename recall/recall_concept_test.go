package recall_test

import (
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
)

// A query in one language finds a fact written in the other through the
// concept table, the expansion is in the trace with its weight, and a
// memory holding only a partner word never outranks one holding the
// query's own word.
func TestConceptExpansionCrossesLanguages(t *testing.T) {
	e, _ := enginetest.Open(t, t.TempDir()+"/c.db", enginetest.DemoNow)
	add := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, CreatedAt: enginetest.DemoNow.AddDate(0, 0, -3),
			Status: engine.StatusActive, Kind: engine.KindFact, Importance: 0.8, Type: "health"})
	}
	add("ko-knee", "무릎이 안 좋아서 병원 갔는데 연골 문제래")
	add("en-knee", "my knee hurts after the long hike")
	add("other", "bought a new laptop bag today")

	tr := enginetest.Recall(t, e, enginetest.ReadOnly("what's wrong with my knee?"))
	keys := enginetest.SurvivorKeys(tr)
	if len(keys) < 2 || keys[0] != "en-knee" || !strings.Contains(strings.Join(keys, " "), "ko-knee") {
		t.Fatalf("survivors %v: want en-knee first, then ko-knee", keys)
	}
	if strings.Contains(strings.Join(keys, " "), "other") {
		t.Errorf("survivors %v: the laptop bag shares no concept with the query", keys)
	}
	if got := tr.Stages[0].Notes["concept_expansions"]; !strings.Contains(got, "knee → 무릎 ×0.500") {
		t.Errorf("concept_expansions note %q", got)
	}

	tr = enginetest.Recall(t, e, enginetest.ReadOnly("내 무릎 상태 어때?"))
	if keys := enginetest.SurvivorKeys(tr); !strings.Contains(strings.Join(keys, " "), "en-knee") {
		t.Errorf("Korean query: survivors %v, want the English knee fact too", keys)
	}
}
