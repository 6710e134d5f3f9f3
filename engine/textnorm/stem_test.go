package textnorm

import "testing"

func TestPorter2Readable(t *testing.T) {
	// Expected stems from the Snowball English vocabulary, spelled readable.
	for w, want := range map[string]string{
		"caresses": "caress", "ponies": "pony", "ties": "tie", "cries": "cry", "hopping": "hop",
		"hoping": "hope", "falling": "fall", "generously": "generous", "relationships": "relationship",
		"adoption": "adopt", "conditional": "condit", "vietnamization": "vietnam", "adjustment": "adjust",
		"effective": "effect", "hopefulness": "hope", "electrical": "electr", "controll": "control",
		"cease": "ceas", "apples": "apple", "cherries": "cherry", "skies": "sky", "news": "news",
		"succeed": "succeed", "yes": "yes", "say": "say",
	} {
		if got := readable(porter2(w, false)); got != want {
			t.Errorf("readable(porter2(%q)) = %q, want %q", w, got, want)
		}
	}
}

func TestStemKeepsFinalE(t *testing.T) {
	for w, want := range map[string]string{
		"memtrace": "memtrace", "sunrise": "sunrise", "apples": "apple", "painting": "paint",
		"counseling": "counsel", "adoption": "adopt", "cease": "cease",
		// Words of other characters, and short ones, pass unchanged.
		"x2i": "x2i", "mp3s": "mp3s", "ui": "ui", "café": "café",
	} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
	// Inflections of one word share a term.
	for _, group := range [][]string{{"paint", "painted", "painting", "paints"}, {"adopt", "adopted", "adoption", "adopting"}, {"relationship", "relationships"}} {
		for _, w := range group[1:] {
			if Stem(w) != Stem(group[0]) {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: not conflated", w, Stem(w), group[0], Stem(group[0]))
			}
		}
	}
}
