package recall_test

import (
	"testing"

	"memtrace/engine"
	"memtrace/recall"
)

func TestQueryIntent(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want engine.TemporalIntent
	}{
		{"what medication do I take these days?", engine.IntentNow},
		{"Am I currently on any diet?", engine.IntentNow},
		{"what do I do now?", engine.IntentNow},
		{"요즘 무릎은 어때?", engine.IntentNow},
		{"지금 다니는 회사가 어디지?", engine.IntentNow},
		{"When did I go to Chungju?", engine.IntentPast},
		{"the last time we had ramen", engine.IntentPast},
		{"그때 먹은 사과 기억나?", engine.IntentPast},
		{"예전에 살던 동네", engine.IntentPast},
		{"when did I start taking it, these days?", engine.IntentPast}, // the event wins
		{"what is my blood type", engine.IntentNeutral},
		{"do you know my sister?", engine.IntentNeutral}, // "now" inside "know" is no marker
		{"충주 사과", engine.IntentNeutral},
	} {
		if got, marker := recall.QueryIntent(tt.q); got != tt.want {
			t.Errorf("QueryIntent(%q) = %s (marker %q), want %s", tt.q, got, marker, tt.want)
		}
	}
}
