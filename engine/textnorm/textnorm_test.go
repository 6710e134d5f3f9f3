package textnorm

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestSurface(t *testing.T) {
	tests := []struct{ in, want string }{
		{"그 프로젝트의 진행 상황을 알려줘", "프로젝트 진행 상황"},
		{"충주 시에 충주 사과가 맛있었지?", "충주 시 충주 사과 맛있"},
		{"What is the status of the project?", "status project"},
	}
	for _, tt := range tests {
		if got := Surface(tt.in); got != tt.want {
			t.Errorf("Surface(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"충주 사과가 정말 달고 맛있었어", []string{"충주", "사과", "달고", "맛있"}},
		{"사과", []string{"사과"}},
		{"memtrace의 SQLite 스토어", []string{"memtrac", "sqlite", "스토어"}},
		{"She painted apples and cherries", []string{"paint", "apple", "cherry"}},
		{"I'm running tests", []string{"run", "test"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQueryTermsReportsDropped(t *testing.T) {
	kept, dropped := QueryTerms("안녕 그 사과를 알려줘")
	if !reflect.DeepEqual(kept, []string{"안녕", "사과"}) {
		t.Errorf("kept = %q", kept)
	}
	if !reflect.DeepEqual(dropped, []string{"그", "알려줘"}) {
		t.Errorf("dropped = %q", dropped)
	}
}

// eachWord lowers word by word; the words must be exactly those of
// lowering the whole text first and splitting that (what it did before).
func TestWordsEqualLoweringFirst(t *testing.T) {
	for _, s := range []string{
		"그 프로젝트의 진행 상황을 알려줘", "Caroline adopted running DOGS; creative Creators",
		"충주 사과가 맛있었지? memtrace의 SQLite", "ΣΊΣΥΦΟΣ Straße İstanbul ǅemal", "bad\xffutf8 X\x00Y",
		"ⒶⒷ circled", "Ⅻ roman numerals", "MixedCase한글Mixed",
	} {
		if got, want := words(s, eachWord), words(s, wordsLoweringFirst); got != want {
			t.Errorf("words(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzWordsEqualLoweringFirst(f *testing.F) {
	f.Add("Caroline adopted 충주 사과를 SQLite의")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := words(s, eachWord), words(s, wordsLoweringFirst); got != want {
			t.Errorf("words(%q) = %q, want %q", s, got, want)
		}
	})
}

func words(s string, each func(string, func(string, bool))) string {
	var b strings.Builder
	each(s, func(w string, hangul bool) {
		fmt.Fprintf(&b, "%s/%v|", w, hangul)
	})
	return b.String()
}

// wordsLoweringFirst is the reference: lower the whole text, then split.
func wordsLoweringFirst(s string, fn func(w string, hangul bool)) {
	s = strings.ToLower(s)
	start := -1
	startHangul := false
	for i, r := range s {
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		h := isHangul(r)
		if start >= 0 && (!isWord || h != startHangul) {
			fn(s[start:i], startHangul)
			start = -1
		}
		if isWord && start < 0 {
			start, startHangul = i, h
		}
	}
	if start >= 0 {
		fn(s[start:], startHangul)
	}
}

// An irregular verb form is one term with its base form in Tokens and
// QueryTerms ("what did Caroline buy" finds "I bought"), while StableTokens,
// what stored vectors and lesson keys are built from, keeps the form as
// before. Forms that are also nouns ("left", "saw") are left alone.
func TestIrregularVerbForms(t *testing.T) {
	for _, tc := range []struct{ text, tokens, stable string }{
		{"I bought a pottery wheel", "buy pottery wheel", "bought pottery wheel"},
		{"we went hiking and ran a race", "go hike run race", "went hike ran race"},
		{"she taught me; he wrote it", "teach write", "taught wrote"},
		{"the saw on the left", "saw left", "saw left"},
	} {
		if got := strings.Join(Tokens(tc.text), " "); got != tc.tokens {
			t.Errorf("Tokens(%q) = %q, want %q", tc.text, got, tc.tokens)
		}
		if got := strings.Join(StableTokens(tc.text), " "); got != tc.stable {
			t.Errorf("StableTokens(%q) = %q, want %q", tc.text, got, tc.stable)
		}
	}
	if kept, _ := QueryTerms("what did Caroline buy"); !slices.Contains(kept, "buy") {
		t.Errorf("QueryTerms: %v", kept)
	}
	if !IsGeneric(Stem("took")) || !IsGeneric("take") {
		t.Error("took/take must stay generic")
	}
}

// One word family is one term for search, whatever Porter2 does with its
// suffixes; short stems and unrelated "-ic" words keep theirs.
func TestConflateWordFamilies(t *testing.T) {
	same := [][2]string{
		{"allergic", "allergies"}, {"allergy", "Allergic"},
		{"ironic", "irony"}, {"economic", "economy"},
	}
	for _, p := range same {
		a, b := Tokens(p[0]), Tokens(p[1])
		if len(a) != 1 || len(b) != 1 || a[0] != b[0] {
			t.Errorf("Tokens(%q) = %v, Tokens(%q) = %v: want one term", p[0], a, p[1], b)
		}
	}
	for _, p := range [][2]string{{"music", "muse"}, {"store", "story"}, {"public", "pub"}} {
		if a, b := Tokens(p[0]), Tokens(p[1]); len(a) == 1 && len(b) == 1 && a[0] == b[0] {
			t.Errorf("%q and %q conflated to %q", p[0], p[1], a[0])
		}
	}
	if got := StableTokens("approvals allergic"); strings.Join(got, " ") != "approv allerg" {
		t.Errorf("StableTokens must not conflate: %v", got)
	}
}

// The month May is a term; the modal verb, and a sentence that opens with
// it, are not.
func TestMonthMayIsNotTheModal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"we met in May", "meet may"},
		{"flights on May 3", "flight may 3"},
		{"it may rain", "rain"},
		{"May I ask something? Sure.", "ask someth sure"},
		{"booked it. May 1-5 in Taipei", "book may 1 5 taipei"},
	} {
		if got := strings.Join(Tokens(c.in), " "); got != c.want {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
