package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
)

// A counting question wants every occurrence: alike memories of one
// activity are not redundant for it, a fact/semantic quota does not seat
// an unrelated memory over an occurrence, and "this year" (a period that
// holds the whole store) is no evidence for the unrelated memories told
// beside the occurrences.
func TestCountingQuestionKeepsEveryOccurrence(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	n := 0
	mk := func(key, text string, kind engine.Kind, session string) {
		n++
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Kind: kind, Importance: 0.6, Session: session,
			CreatedAt: now.Add(-time.Duration(n) * time.Hour)})
	}
	var want []string
	for i, s := range []string{"went climbing at the gym yesterday, sent a V2", "climbing again tonight, the gym was packed",
		"climbing with Hana at the new gym, fell a lot", "another climbing night at the gym, skin is gone",
		"climbing session at the gym, finally sent the V3"} {
		key := fmt.Sprintf("climb%d", i)
		want = append(want, key)
		kind := engine.KindEpisode
		if i%2 == 0 {
			kind = engine.KindFact
		}
		mk(key, s, kind, fmt.Sprintf("s%d", i))
		mk(fmt.Sprintf("aside%d", i), fmt.Sprintf("my sister's birthday dinner is booked for the %dth at a place downtown", i+10), engine.KindFact, fmt.Sprintf("s%d", i))
	}
	for i := range 30 {
		mk(fmt.Sprintf("filler%d", i), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", i), engine.KindEpisode, "f")
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "how many times did I go climbing this year?", At: now, K: 5, ReadOnly: true})
	got := enginetest.SurvivorKeys(tr)
	for _, k := range want {
		if !slices.Contains(got, k) {
			t.Errorf("survivors %v, want every climbing memory (%s missing)", got, k)
		}
	}
	for _, st := range []string{"mmr", "merge"} {
		if note := tr.Stage(st).Notes["counting"]; !strings.Contains(note, "how many times") {
			t.Errorf("%s note counting = %q", st, note)
		}
	}
	if note := tr.Stage("rerank").Notes["period_evidence"]; !strings.Contains(note, "most of the store") {
		t.Errorf("rerank note period_evidence = %q, want the broad period named as no evidence", note)
	}
}

// A period that holds at most k memories is evidence on its own: "지난주에
// 뭐 샀더라?" finds last week's English purchase, though they share no word.
func TestNarrowPeriodIsEvidence(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	add := func(key, text string, ago time.Duration) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-ago)})
	}
	add("desk", "bought a standing desk for home office, 590,000 won", 6*day)
	add("rain", "the storm flooded the underpass by the station", 5*day)
	for i := range 30 {
		add(fmt.Sprintf("old%d", i), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", i), time.Duration(20+i)*day)
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "지난주에 뭐 샀더라?", At: now, K: 5, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "desk") {
		t.Errorf("survivors %v, want desk (of the named week, which holds two memories)", got)
	}
	if note := tr.Stage("rerank").Notes["period_evidence"]; !strings.Contains(note, "at most k") {
		t.Errorf("rerank note period_evidence = %q", note)
	}
}
