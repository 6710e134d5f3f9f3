package recall_test

import (
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/internal/testdata/enginetest"
)

// A query word's WordNet hyponyms find a memory that names only a kind of
// it, on a real SQLite store, and the trace names the expansion: its
// source, its relation and its weight below the query's own word.
func TestWordNetHyponymFindsKind(t *testing.T) {
	e, _ := enginetest.Open(t, t.TempDir()+"/w.db", enginetest.DemoNow)
	add := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, CreatedAt: enginetest.DemoNow.AddDate(0, 0, -3),
			Status: engine.StatusActive, Kind: engine.KindFact, Importance: 0.6, Type: "preference"})
	}
	add("mousse", "Mina made a chocolate mousse for the party")
	add("poodle", "our neighbour's poodle barks at the mailman")
	add("bag", "bought a new laptop bag today")
	add("rent", "the rent goes up in March")

	tr := enginetest.Recall(t, e, enginetest.ReadOnly("What dessert did Mina make?"))
	keys := enginetest.SurvivorKeys(tr)
	if len(keys) == 0 || keys[0] != "mousse" {
		t.Fatalf("survivors %v: want the mousse memory first", keys)
	}
	note := tr.Stages[0].Notes["wordnet_expansions"]
	if !strings.Contains(note, "dessert → "+textnorm.Tokens("mousse")[0]+" ×0.350 (hyponym)") || !strings.Contains(note, "(hyponym") {
		t.Errorf("wordnet_expansions note %q: want the mousse expansion named with its relation", note)
	}

	tr = enginetest.Recall(t, e, enginetest.ReadOnly("tell me about the neighbour's dog"))
	if keys := enginetest.SurvivorKeys(tr); !strings.Contains(strings.Join(keys, " "), "poodle") {
		t.Errorf("dog query: survivors %v, want the poodle", keys)
	}
	if got := tr.Stages[0].Notes["wordnet_expansions"]; !strings.Contains(got, "dog → poodle ×0.") {
		t.Errorf("dog query: wordnet_expansions note %q", got)
	}
}

// Gates: a query word with hundreds of kinds expands into none of them, an
// expansion no memory holds is not added, and no expansion weighs as
// much as a query word.
func TestWordNetExpansionIsGated(t *testing.T) {
	e, _ := enginetest.Open(t, t.TempDir()+"/g.db", enginetest.DemoNow)
	enginetest.Add(t, e, engine.Memory{Key: "swim", Content: "went swimming at the lake on Sunday", CreatedAt: enginetest.DemoNow.AddDate(0, 0, -2),
		Status: engine.StatusActive, Kind: engine.KindEpisode, Importance: 0.5, Type: "event"})
	tr := enginetest.Recall(t, e, enginetest.ReadOnly("what activity did I do on Sunday?"))
	note := tr.Stages[0].Notes["wordnet_expansions"]
	if strings.Contains(note, "activity →") && strings.Contains(note, "(hyponym") {
		t.Errorf("activity expanded into its hyponyms: %q", note)
	}
	tr = enginetest.Recall(t, e, enginetest.ReadOnly("any news about my dog?"))
	note = tr.Stages[0].Notes["wordnet_expansions"]
	if strings.Contains(note, "poodle") {
		t.Errorf("an expansion no memory holds was added: %q", note)
	}
	for _, part := range strings.Split(note, "; ") {
		if part != "" && !strings.Contains(part, "×0.") {
			t.Errorf("expansion %q weighs as much as a query word", part)
		}
	}
}

// A name is not a common noun: "John" in the middle of a question is a
// person, not WordNet's john (a toilet), so it brings no "bathroom"; the
// trace names it in wordnet_names. The same word opening a sentence is not
// read as a name.
func TestWordNetLeavesNamesUnexpanded(t *testing.T) {
	e, _ := enginetest.Open(t, t.TempDir()+"/n.db", enginetest.DemoNow)
	add := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, CreatedAt: enginetest.DemoNow.AddDate(0, 0, -2),
			Status: engine.StatusActive, Kind: engine.KindEpisode, Importance: 0.5, Type: "event"})
	}
	add("john", "John started a new job at the bakery")
	add("bath", "the bathroom tiles need fixing")
	add("poodle", "our neighbour's poodle barks at the mailman")
	add("rent", "the rent goes up in March")

	tr := enginetest.Recall(t, e, enginetest.ReadOnly("what did John start?"))
	note := tr.Stages[0].Notes["wordnet_expansions"]
	if strings.Contains(note, "john →") {
		t.Errorf("the name John was expanded: %q", note)
	}
	if got := tr.Stages[0].Notes["wordnet_names"]; got != "john" {
		t.Errorf("wordnet_names %q, want john", got)
	}
	for _, k := range enginetest.SurvivorKeys(tr) {
		if k == "bath" {
			t.Errorf("the bathroom memory survived a question about John: %v", enginetest.SurvivorKeys(tr))
		}
	}
	// a common noun in the same place is still expanded
	tr = enginetest.Recall(t, e, enginetest.ReadOnly("what did the dog do?"))
	if got := tr.Stages[0].Notes["wordnet_expansions"]; !strings.Contains(got, "dog → poodle") {
		t.Errorf("dog query: wordnet_expansions %q", got)
	}
	if got := tr.Stages[0].Notes["wordnet_names"]; got != "" {
		t.Errorf("dog query: wordnet_names %q, want none", got)
	}
}
