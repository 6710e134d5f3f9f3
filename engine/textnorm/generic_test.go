package textnorm

import "testing"

func TestIsGenericComparesTerms(t *testing.T) {
	for _, w := range []string{"take", "taking", "every", "always", "thing", "morning", "name", "하다", "있다", "되다", "모든", "다", "요즘"} {
		words := Tokens(w)
		if len(words) != 1 || !IsGeneric(words[0]) {
			t.Errorf("%q → terms %q: want one generic term", w, words)
		}
	}
	for _, w := range []string{"medication", "allergy", "cetirizine", "사과", "충주", "무릎", "재활"} {
		for _, term := range Tokens(w) {
			if IsGeneric(term) {
				t.Errorf("%q → %q counts as generic", w, term)
			}
		}
	}
}

func TestSpecificSurface(t *testing.T) {
	tests := []struct{ in, want string }{
		{"what medication do I take every morning", "medication"},
		{"무릎 재활은 요즘 어때?", "무릎 재활"},
		{"모든 거 다 있어?", ""},
		{"충주 사과", "충주 사과"},
	}
	for _, tt := range tests {
		if got := SpecificSurface(tt.in); got != tt.want {
			t.Errorf("SpecificSurface(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
