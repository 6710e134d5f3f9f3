package capture

import (
	"slices"
	"testing"
)

// Inflected and particle-stacked forms of one Korean word key the same;
// a word with no suffix of the closed list (a one-syllable name) stays
// whole; a word that is all one ending is no term.
func TestKoKeyStemStripsClosedEndings(t *testing.T) {
	for w, want := range map[string]string{
		"비밀번호는": "비밀번호", "비밀번호야": "비밀번호", "비밀번호만": "비밀번호", "비밀번호": "비밀번호",
		"필요하면": "필요", "마일이나": "마일", "때만": "때", "파일에서만": "파일", "준이라고": "준",
		"준": "준", "민": "민", "야": "", "돼": "",
		"금지요": "금지", "보여줘": "보여", "필요": "필요", "최고": "최고", "쓰거나": "쓰",
	} {
		if got := koKeyStem(w); got != want {
			t.Errorf("koKeyStem(%q) = %q, want %q", w, got, want)
		}
	}
}

// A Korean lesson keys the same whether its noun carries a particle or
// not: the terms of two inflections are equal.
func TestKoreanLessonTermsIgnoreParticles(t *testing.T) {
	a := lessonTerms("배포 일정은 민수한테만 물어봐")
	b := lessonTerms("배포 일정 민수한테 물어봐")
	if !slices.Equal(a, b) {
		t.Errorf("terms %v and %v differ", a, b)
	}
	if !slices.Contains(a, "민수") {
		t.Errorf("terms %v lack 민수", a)
	}
}
