package capture

import (
	"slices"
	"testing"
)

// Loanwords by sound, from the examples of the National Institute of
// Korean Language's loanword orthography (외래어 표기법) and common software
// loanwords; native Korean words must not sound like an English word.
func TestSoundMatchReadsLoanwords(t *testing.T) {
	for _, p := range [][2]string{{"로봇", "robot"}, {"서버", "server"}, {"버그", "bug"}, {"컴퓨터", "computer"},
		{"메모리", "memory"}, {"클라우드", "cloud"}, {"데이터", "data"}, {"스크립트", "script"}, {"포맷해", "format"}} {
		if !soundMatch(p[0], p[1]) {
			t.Errorf("%s (%s) and %s (%s) do not match by sound", p[0], soundKey(p[0]), p[1], soundKey(p[1]))
		}
	}
	for _, p := range [][2]string{{"사과", "apple"}, {"바로", "pull"}, {"나무", "name"}, {"모두", "mode"}, {"이", "e"}} {
		if soundMatch(p[0], p[1]) {
			t.Errorf("%s (%s) and %s (%s) match by sound", p[0], soundKey(p[0]), p[1], soundKey(p[1]))
		}
	}
}

// A negator negates the term next to it, in either language, and the
// polarity keeps a rule apart from its reverse.
func TestLessonTermsPolarity(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"use yarn instead of bower", []string{"not_bower", "yarn"}},
		{"bower 말고 yarn 써줘", []string{"not_bower", "yarn"}},
		// don't negates call, its head; call said again positively in
		// another clause is not negated, so the negation falls on what
		// follows it (Lee), as in "call me Sam, not Mr. Lee"
		{"Don't call me Mr. Lee, call me Sam.", []string{"call", "not_lee", "sam"}},
		{"Please call me Sam, not Mr. Lee.", []string{"call", "not_lee", "sam"}},
	} {
		if got := lessonTerms(c.text); !slices.Equal(got, c.want) {
			t.Errorf("lessonTerms(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	a, b := lessonTerms("Don't call me Mr. Lee, call me Sam."), lessonTerms("Please call me Sam, not Mr. Lee.")
	if _, same := lessonOverlap(a, b); !same {
		t.Errorf("%q and %q are two lessons", a, b)
	}
	a, b = lessonTerms("use yarn instead of bower"), lessonTerms("use bower instead of yarn")
	if _, same := lessonOverlap(a, b); same {
		t.Errorf("%q and %q are one lesson", a, b)
	}
	a, b = lessonTerms("write the changelog in british spelling"), lessonTerms("write the changelog in american spelling")
	if _, same := lessonOverlap(a, b); same {
		t.Errorf("%q and %q (one value swapped) are one lesson", a, b)
	}
	a, b = lessonTerms("검색할 때 bower 말고 yarn 써"), lessonTerms("search with yarn, not bower")
	if _, same := lessonOverlap(a, b); !same {
		t.Errorf("%q and %q (one rule, two languages) are two lessons", a, b)
	}
}
