package recall_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/recall"
)

// A forgotten memory whose session the query cues — another memory of the
// same session is recognised by its own words — is recognised at
// SessionRecognitionShare of the cue; the same cue in a session the query
// does not cue leaves it forgotten.
func TestSessionRecognition(t *testing.T) {
	at := t0.Add(-120 * day)
	e, _ := enginetest.Open(t, "", t0)
	n := 0
	add := func(key, session, text string) engine.Memory {
		n++
		return enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Kind: engine.KindEpisode, Importance: 0.5,
			Session: session, CreatedAt: at.Add(time.Duration(n) * time.Minute)})
	}
	filler := []string{"the weather was grey all morning", "we argued about the best pizza topping", "my cousin called about her new job",
		"the train was late again", "I finally fixed the squeaky door", "we watched a documentary about bees"}
	anchor := add("anchor", "trip", "we paddled a kayak out to the lighthouse")
	for i, f := range filler[:4] {
		add(fmt.Sprintf("trip-%d", i), "trip", f)
	}
	part := add("part", "trip", "the picnic basket had sandwiches and picnic blankets, a real picnic")
	for i, f := range filler {
		add(fmt.Sprintf("home-%d", i), "home", f)
	}
	stranger := add("stranger", "errands", "the ferry schedule changed, the ferry leaves earlier, ferry tickets cost more")
	for i, f := range filler[2:] {
		add(fmt.Sprintf("errands-%d", i), "errands", f)
	}
	add("harbour", "town", "the harbour smells of fish")
	q := engine.Query{Text: "kayak lighthouse harbour picnic ferry", ReadOnly: true, At: engine.ForgetAt(part, e.Config()).Add(day)}
	if q.At.After(engine.UnrecognisableAt(part, e.Config())) {
		t.Fatalf("query at %s is past the recognition horizon", q.At)
	}
	tr := enginetest.Recall(t, e, q)
	cue := func(key string) (engine.TraceItem, float64) {
		it, ok := enginetest.Item(tr, "temporal", key)
		if !ok {
			rr, _ := enginetest.Item(tr, "rerank", key)
			t.Fatalf("%s not at the temporal stage (rerank: %s %q)", key, rr.DropKind, rr.Dropped)
		}
		return it, it.Scores["cue_strength"]
	}
	a, ac := cue("anchor")
	if a.Dropped != "" || !a.Recognised || ac < engine.RecognitionCue {
		t.Fatalf("anchor: %q recognised %v cue %v; want recognised by its own words", a.Dropped, a.Recognised, ac)
	}
	low := recall.SessionRecognitionShare * engine.RecognitionCue
	p, pc := cue("part")
	s, sc := cue("stranger")
	if pc < low || pc >= engine.RecognitionCue || sc < low || sc >= engine.RecognitionCue {
		t.Fatalf("cue_strength part %v, stranger %v: both must lie in [%v, %v) for this test", pc, sc, low, engine.RecognitionCue)
	}
	if p.Dropped != "" || !p.Recognised {
		t.Errorf("part (session cued by the anchor, cue %v): %q recognised %v; want recognised through its session", pc, p.Dropped, p.Recognised)
	}
	if s.DropKind != engine.DropForgotten {
		t.Errorf("stranger (its session not cued, cue %v): %s %q; want forgotten", sc, s.DropKind, s.Dropped)
	}
	note := tr.Stage("temporal").Notes
	if !strings.Contains(note["recognised"], fmt.Sprintf("id %d: recognised through its session", p.ID)) ||
		!strings.Contains(note["session_recognition"], "1 memories kept by it") {
		t.Errorf("notes recognised %q, session_recognition %q", note["recognised"], note["session_recognition"])
	}
	_, _ = anchor, stranger
}
