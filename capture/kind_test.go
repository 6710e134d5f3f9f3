package capture

import (
	"testing"

	"memtrace/engine"
)

// TestKindFromPredicate: the kind is read from the statement's predicate
// — states, periods of life, changes of state and present heads are
// facts; past events and dated happenings are episodes. Wordings written
// for this test.
func TestKindFromPredicate(t *testing.T) {
	for text, want := range map[string]engine.Kind{
		// Past events, with and without a time word.
		"Dropped my phone in the sink, screen is cracked":  engine.KindEpisode,
		"the mechanic replaced both front tyres":           engine.KindEpisode,
		"On May 2 I gave a toast at my cousin's wedding":   engine.KindEpisode,
		"My sister fixed the fence with my dad":            engine.KindEpisode,
		"아까 편의점에서 우산 샀어":                                   engine.KindEpisode,
		"Museum tickets were 12,000 won for the two of us": engine.KindEpisode,
		// States, participles of state, perfects, relative clauses.
		"I have a fractured rib that never healed properly":   engine.KindFact,
		"I own a guitar my grandfather built":                 engine.KindFact,
		"We have a cat named Dubu":                            engine.KindFact,
		"I've visited Kyoto three times":                      engine.KindFact,
		"Spiders freak me out, I once screamed at a tiny one": engine.KindFact,
		"rent is 650,000 won a month":                         engine.KindFact,
		// Periods of life and changes of state.
		"I lived in Lyon for three years":     engine.KindFact,
		"I majored in chemistry":              engine.KindFact,
		"I played the trumpet in high school": engine.KindFact,
		"고등학교 때 3년 동안 기숙사에서 살았어":              engine.KindFact,
		"I switched to decaf in October":      engine.KindFact,
		"회사 옮겼어, 이제 판교로 출근해":                  engine.KindFact,
	} {
		if got := kindOf("note", text, lexNorm(text)); got != want {
			t.Errorf("%q: kind %s, want %s", text, got, want)
		}
	}
}

// TestPresentHeadIgnoresDecimals: a decimal point or a clock time is no
// end of the head clause.
func TestPresentHeadIgnoresDecimals(t *testing.T) {
	if !presentHead("The app's 2.0 launch is on May 9; we announced it at the meetup") {
		t.Error("the head clause was cut at the decimal point")
	}
}
