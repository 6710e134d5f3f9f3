package filter

import "testing"

// TestKoEndingClasses: one table reads every close; an informal 어/해 is
// declarative-or-imperative (a fact reader does not take it), hearsay is
// reported, and a noun that merely ends like one (침대, 기대) is none.
func TestKoEndingClasses(t *testing.T) {
	for _, tc := range []struct {
		w     string
		class KoEndingClass
		fact  bool
	}{
		{"비건이야", KoDeclarative, true}, {"교사예요", KoDeclarative, true}, {"화요일이다", KoDeclarative, true},
		{"있습니다", KoDeclarative, true}, {"먹어", KoDeclOrImperative, false}, {"돌려봐요", KoDeclOrImperative, false},
		{"가능해", KoDeclOrImperative, false}, {"갔대", KoReported, true}, {"결혼한대", KoReported, true},
		{"학생이고", KoConnective, false}, {"침대", KoNoEnding, false}, {"기대", KoNoEnding, false}, {"중", KoDeclarative, true},
	} {
		e, ok := KoEndingOf(tc.w)
		if !ok && tc.class != KoNoEnding || ok && e.Class != tc.class {
			t.Errorf("KoEndingOf(%q) = %v %v, want class %v", tc.w, e, ok, tc.class)
		}
		if KoStatesFact(tc.w) != tc.fact {
			t.Errorf("KoStatesFact(%q) = %v, want %v", tc.w, !tc.fact, tc.fact)
		}
	}
}

// TestKoNamedSubject: a clause opened by a Korean given name — bare
// before a predicate, or with 는/은/도/가/이, with or without the
// affectionate -이 — is about that person; a common noun is no name.
func TestKoNamedSubject(t *testing.T) {
	for clause, want := range map[string]string{
		"민수 결혼했어": "민수", "지현 이사 갔대": "지현", "민수는 결혼했어": "민수", "지현도 이사했어": "지현",
		"서연이가 회사 옮겼어": "서연", "김민수 퇴사했어": "민수", "태민이는 초등학교 들어갔어": "태민",
		"고기 이제 안 먹어": "", "회사 옮겼어": "", "수영 그만뒀어": "", "우리 이사했어": "", "나 비건이야": "", "민수": "",
	} {
		if got := KoNamedSubject(clause); got != want {
			t.Errorf("KoNamedSubject(%q) = %q, want %q", clause, got, want)
		}
	}
}

// TestSelfStatementDetector: the one detector reads the speaker's own
// short statements (and whether they are copular) and not someone
// else's: hearsay and a named third person are not the speaker's.
func TestSelfStatementDetector(t *testing.T) {
	for _, tc := range []struct {
		text        string
		ok, copular bool
	}{
		{"나 비건이야", true, true}, {"저 교사예요", true, true}, {"I'm vegan", true, true}, {"밀가루 안 먹어", true, false},
		{"I don't eat flour", true, false}, {"나 학생이고", false, true}, {"민수 고기 안 먹어", false, false},
		{"민수 결혼했어", false, false}, {"나 이사 간대", false, false}, {"응 고마워", false, false}, {"I'm fine", false, false},
	} {
		ok, cop := SelfStatement(tc.text)
		if ok != tc.ok || cop != tc.copular {
			t.Errorf("SelfStatement(%q) = %v, %v; want %v, %v", tc.text, ok, cop, tc.ok, tc.copular)
		}
	}
}
