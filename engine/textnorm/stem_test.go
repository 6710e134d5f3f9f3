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

// Tokens conflates what Stem keeps apart: a final "e" Stem kept
// ("approve" and "approved"), an "-ic" adjective and its "-y" noun, and
// leaves apart what only looks alike.
func TestTokensConflateWordFamilies(t *testing.T) {
	one := func(w string) string {
		ts := Tokens(w)
		if len(ts) != 1 {
			t.Fatalf("Tokens(%q) = %q, want one term", w, ts)
		}
		return ts[0]
	}
	for _, group := range [][]string{
		{"approve", "approves", "approved", "approval", "approvals", "approving"},
		{"allergy", "allergies", "allergic"},
		{"dance", "dances", "danced", "dancing"},
		{"create", "creates", "created", "creating"},
		{"excite", "excited", "exciting"},
		{"hike", "hikes", "hiked", "hiking"},
		{"irony", "ironic"},
		{"artist", "artists", "artistic"},
		{"cobbler", "cobblers"},
	} {
		for _, w := range group[1:] {
			if one(w) != one(group[0]) {
				t.Errorf("Tokens(%q) = %q, Tokens(%q) = %q: not conflated", w, one(w), group[0], one(group[0]))
			}
		}
	}
	for _, pair := range [][2]string{{"music", "muse"}, {"public", "pub"}, {"hike", "hik"}, {"care", "car"}} {
		if one(pair[0]) == one(pair[1]) {
			t.Errorf("Tokens(%q) and Tokens(%q) are one term %q", pair[0], pair[1], one(pair[0]))
		}
	}
}

// "May" the month is a term; "may" the modal is a stop word.
func TestMayTheMonth(t *testing.T) {
	for s, want := range map[string]int{
		"We met in May.": 1, "May 3 is my birthday": 1, "May I ask something?": 0, "I may go": 0, "it may rain in May": 1,
	} {
		n := 0
		for _, tok := range Tokens(s) {
			if tok == "may" {
				n++
			}
		}
		if n != want {
			t.Errorf("Tokens(%q) has %d \"may\", want %d", s, n, want)
		}
	}
}
