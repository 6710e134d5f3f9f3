package wordnet

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// hypernyms is s's direct (and instance) hypernyms (shared).
func hypernyms(s Synset) []Synset {
	d := load()
	return d.hypers[d.hyperAt[s]:d.hyperAt[s+1]:d.hyperAt[s+1]]
}

// synonyms reports whether a and b share a synset of pos.
func synonyms(a, b string, pos byte) bool {
	for _, s := range Senses(a, pos) {
		if slices.Contains(Words(s), b) {
			return true
		}
	}
	return false
}

// below reports whether a sense of hypo sits under a sense of hyper
// within depth hypernym steps.
func below(hypo, hyper string, pos byte, depth int) bool {
	var walk func(s Synset, d int) bool
	walk = func(s Synset, d int) bool {
		if slices.Contains(Words(s), hyper) {
			return true
		}
		if d == 0 {
			return false
		}
		for _, h := range hypernyms(s) {
			if walk(h, d-1) {
				return true
			}
		}
		return false
	}
	for _, s := range Senses(hypo, pos) {
		for _, h := range hypernyms(s) {
			if walk(h, depth-1) {
				return true
			}
		}
	}
	return false
}

// above is below seen from the hypernym: hyper's hyponyms reach hypo.
func above(hyper, hypo string, pos byte, depth int) bool {
	var walk func(s Synset, d int) bool
	walk = func(s Synset, d int) bool {
		for _, h := range Hyponyms(s) {
			if slices.Contains(Words(h), hypo) || (d > 1 && walk(h, d-1)) {
				return true
			}
		}
		return false
	}
	for _, s := range Senses(hyper, pos) {
		if walk(s, depth) {
			return true
		}
	}
	return false
}

func TestSynonymsBothWays(t *testing.T) {
	for _, p := range []struct {
		a, b string
		pos  byte
	}{
		{"car", "automobile", 'n'}, {"sofa", "couch", 'n'}, {"physician", "doctor", 'n'},
		{"purchase", "buy", 'v'}, {"begin", "start", 'v'}, {"big", "large", 'a'},
	} {
		if !synonyms(p.a, p.b, p.pos) || !synonyms(p.b, p.a, p.pos) {
			t.Errorf("%s and %s (%c) share no synset", p.a, p.b, p.pos)
		}
	}
	if synonyms("cat", "dog", 'n') {
		t.Error("cat and dog share a synset")
	}
}

func TestHypernymsAndHyponyms(t *testing.T) {
	for _, p := range []struct {
		hypo, hyper string
		depth       int
	}{
		{"surfing", "sport", 2}, {"poodle", "dog", 2},
		{"violin", "instrument", 3}, {"salmon", "fish", 2}, {"paris", "capital", 2},
	} {
		if !below(p.hypo, p.hyper, 'n', p.depth) {
			t.Errorf("%s is not under %s within %d steps", p.hypo, p.hyper, p.depth)
		}
		if !above(p.hyper, p.hypo, 'n', p.depth) {
			t.Errorf("%s's hyponyms do not reach %s within %d steps", p.hyper, p.hypo, p.depth)
		}
	}
	if below("dessert", "cobbler", 'n', 3) {
		t.Error("dessert is under cobbler")
	}
}

func TestSenseOrder(t *testing.T) {
	// "cobbler" is first a shoemaker, its dessert sense comes later.
	ss := Senses("cobbler", 'n')
	if len(ss) < 2 || !slices.Contains(Words(ss[0]), "shoemaker") {
		t.Fatalf("cobbler's first sense is not the shoemaker: %v", ss)
	}
}

func TestLemmas(t *testing.T) {
	for _, c := range []struct {
		word string
		pos  byte
		want string
	}{
		{"desserts", 'n', "dessert"}, {"mice", 'n', "mouse"}, {"dishes", 'n', "dish"},
		{"baking", 'v', "bake"}, {"ran", 'v', "run"}, {"studies", 'v', "study"}, {"bigger", 'a', "big"},
	} {
		if got := Lemmas(c.word, c.pos); !slices.Contains(got, c.want) {
			t.Errorf("Lemmas(%q, %c) = %v, want %q among them", c.word, c.pos, got, c.want)
		}
	}
	if got := Lemmas("memtrace", 'n'); len(got) != 0 {
		t.Errorf("Lemmas(memtrace) = %v, want none", got)
	}
}

// TestLoadIsCheap: the table is parsed at first use; that must stay well
// under a recall's budget of patience.
func TestLoadIsCheap(t *testing.T) {
	start := time.Now()
	load()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("loading the table took %v", d)
	}
	t.Logf("synsets %d, lemma senses %d, exceptions %d", len(load().pos), len(load().senses), len(load().exc))
}

func BenchmarkLoad(b *testing.B) {
	for range b.N {
		load = sync.OnceValue(loadTable)
		load()
	}
}

func TestKnown(t *testing.T) {
	for w, want := range map[string]bool{"after": true, "dessert": true, "quickly": true, "mouss": false, "memtrace": false} {
		if Known(w) != want {
			t.Errorf("Known(%q) = %v, want %v", w, !want, want)
		}
	}
}

func TestOpposed(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"allow", "forbid", true}, {"permit", "prohibit", true}, {"forbid", "allow", true},
		{"include", "exclude", true}, {"enable", "disable", true}, {"show", "hide", true},
		{"increase", "decrease", true}, {"ascending", "descending", true}, {"top", "bottom", true},
		{"allow", "permit", false}, {"include", "contain", false}, {"test", "lint", false}, {"korean", "english", false},
	} {
		if got := Opposed(c.a, c.b); got != c.want {
			t.Errorf("Opposed(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for _, s := range Senses("permit", 'v')[:1] {
		for _, a := range Antonyms(s) {
			for _, b := range Antonyms(a) {
				if b == s {
					return
				}
			}
		}
	}
	t.Error("antonymy of permit (v) is not symmetric")
}
