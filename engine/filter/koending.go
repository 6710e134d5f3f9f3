package filter

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Korean sentence endings: the one table the capture reads a Korean clause's
// close by (a self-statement's L1 floor, the capture's copular
// self-description, "don't forget + a fact"). Each ending has a class,
// because an informal ending is ambiguous where a formal one is not:
//
//   - KoDeclarative: states and never commands — copulas (이야, 예요,
//     입니다, 이다, 임), plain declaratives (…다, …니다, …거든), the
//     nominal …음 and the progressive …중;
//   - KoDeclOrImperative: the informal 어/아/해 and polite …요 endings,
//     which state ("나 고기 안 먹어", I don't eat meat) and command ("먹어",
//     eat!) alike: a reader that needs a fact ("잊지 마, …" + a fact) does
//     not take them as one;
//   - KoReported: hearsay, …대 after a verb and …이래/…거래 ("지현 이사 갔대", Jihyun moved, they
//     say): a statement, of what someone else said or did — never the
//     speaker's own fact about themselves;
//   - KoConnective: a copula continuing into the next clause ("나
//     학생이고, …"): no close of its own, but a copular statement.
//
// Copula marks the copular endings (이야, 예요, 입니다, 이다, 임, 이고 …):
// a statement of what the subject is.
type KoEndingClass uint8

// The classes of a Korean ending (see above); KoNoEnding: none read.
const (
	KoNoEnding KoEndingClass = iota
	KoDeclarative
	KoDeclOrImperative
	KoReported
	KoConnective
)

// KoEnding is one entry of the table.
type KoEnding struct {
	Ending string
	Class  KoEndingClass
	Copula bool
	// Alone: the ending may be a word of its own ("공부 중").
	Alone bool
}

// koEndingTable is the table, longest ending first so the first match is
// the longest ("이에요" before "에요" before "요").
var koEndingTable = []KoEnding{
	{"이거든", KoDeclarative, true, false}, {"이에요", KoDeclarative, true, false}, {"입니다", KoDeclarative, true, false},
	{"이래", KoReported, true, false}, {"이야", KoDeclarative, true, false}, {"이다", KoDeclarative, true, false}, {"예요", KoDeclarative, true, false},
	{"에요", KoDeclarative, true, false}, {"이고", KoConnective, true, false}, {"니다", KoDeclarative, false, false}, {"거든", KoDeclarative, false, false},
	{"거래", KoReported, false, false},
	{"야", KoDeclarative, true, false}, {"임", KoDeclarative, true, false}, {"다", KoDeclarative, false, false}, {"음", KoDeclarative, false, false},
	{"중", KoDeclarative, false, true}, {"대", KoReported, false, false},
	{"요", KoDeclOrImperative, false, false}, {"어", KoDeclOrImperative, false, false}, {"아", KoDeclOrImperative, false, false},
	{"해", KoDeclOrImperative, false, false},
}

// KoEndingOf reads the ending a Korean word closes on (trailing
// punctuation, ㅋㅋ, ㅠㅠ and tildes set aside); ok is false when none of
// the table's. A word that is the ending alone has none (a verb "대", a
// noun "중"), except a one-syllable copula-less close.
func KoEndingOf(w string) (KoEnding, bool) {
	w = strings.TrimRightFunc(w, func(r rune) bool { return !(r >= 0xAC00 && r <= 0xD7A3) })
	if w == "" {
		return KoEnding{}, false
	}
	for _, e := range koEndingTable {
		if !strings.HasSuffix(w, e.Ending) || len(w) == len(e.Ending) && !e.Alone {
			continue
		}
		if e.Ending == "대" && !reportedStem(strings.TrimSuffix(w, e.Ending)) {
			continue // 침대, 기대, 세대: nouns
		}
		return e, true
	}
	return KoEnding{}, false
}

// reportedStem: hearsay …대 follows a verb's past (했대, 갔대: final ㅆ) or
// present (한대, 간대, 먹는대: final ㄴ) form.
func reportedStem(stem string) bool {
	r, _ := utf8.DecodeLastRuneInString(stem)
	if r < 0xAC00 || r > 0xD7A3 {
		return false
	}
	f := (r - 0xAC00) % 28
	return f == 4 || f == 20
}

// KoStatesFact reports whether a Korean word closes a statement of fact:
// a declarative-only or reported ending (an informal …어/…해 may be a
// command, so it is none).
func KoStatesFact(w string) bool {
	e, ok := KoEndingOf(w)
	return ok && (e.Class == KoDeclarative || e.Class == KoReported)
}

// KoReportedClose reports whether text's last Korean word is hearsay
// (…대, …래): what it states is someone else's.
func KoReportedClose(text string) bool {
	f := strings.Fields(text)
	if len(f) == 0 {
		return false
	}
	e, ok := KoEndingOf(f[len(f)-1])
	return ok && e.Class == KoReported
}

// koClosesSelf: the ending of a self-statement's last word — any close
// but hearsay and a connective.
func koClosesSelf(w string) bool {
	e, ok := KoEndingOf(w)
	return ok && (e.Class == KoDeclarative || e.Class == KoDeclOrImperative)
}

// koCopular: a copular ending (이야, 예요, 이다, 임, 이고 …).
func koCopular(w string) bool {
	e, ok := KoEndingOf(w)
	return ok && e.Copula
}

// Korean given names. A person is named in Korean by a given name of two
// syllables (민수, 지현), optionally after a one-syllable surname (김민수),
// with or without the affectionate -이 (민수야, 지현이는) and a particle.
// KoGivenName reads one: every syllable of the name is one Korean given
// names are made of (koNameSyllables), it is no common word (koNotName),
// and what follows it is a particle of a person (는, 도, 가, 이, 랑, 한테 …)
// or nothing (bare: "민수 결혼했어").

// koNameSyllables are the syllables Korean given names are commonly made
// of.
var koNameSyllables = func() map[rune]bool {
	m := map[rune]bool{}
	for _, r := range "민서지현준영수윤우진은하연도예주원정아재성혜희유승호태경동시채소다나상석철미선인훈빈율건환혁규용기한세송보리린솔찬결온종욱창명숙순자옥남효근범형열택" {
		m[r] = true
	}
	return m
}()

// koSurnames are the common one-syllable surnames.
var koSurnames = map[rune]bool{'김': true, '이': true, '박': true, '최': true, '정': true, '강': true, '조': true, '윤': true,
	'장': true, '임': true, '한': true, '오': true, '서': true, '신': true, '권': true, '황': true, '안': true, '송': true,
	'류': true, '전': true, '홍': true, '고': true, '문': true, '양': true, '손': true, '배': true, '백': true, '허': true, '남': true}

// koNotName are common words built of name syllables: nouns, adverbs and
// pronouns that open a clause as often as a name does.
var koNotName = map[string]bool{"우리": true, "현재": true, "정도": true, "수영": true, "정원": true, "요즘": true, "이제": true,
	"다시": true, "아직": true, "지금": true, "하나": true, "서로": true, "도시": true, "시민": true, "주민": true, "선수": true,
	"기자": true, "아이": true, "다음": true, "지난": true, "이번": true, "진짜": true, "정말": true, "원래": true, "혹시": true,
	"영화": true, "한국": true, "재택": true, "동네": true, "회사": true, "연휴": true, "주말": true, "시간": true, "나도": true,
	"나는": true, "우린": true, "저도": true, "저는": true, "예전": true, "유지": true, "소리": true, "선배": true, "후배": true,
	"동생": true, "형도": true, "누나": true, "언니": true, "오빠": true, "아내": true, "남편": true, "아들": true, "동료": true,
	"고양": true, "어린": true, "원숭": true, "호랑": true, "지렁": true, "꼬맹": true, "막둥": true, "멍멍": true, "얼룩": true,
	"똑똑": true, "뚱뚱": true, "기분": true, "성격": true, "건강": true, "영어": true, "한식": true, "재미": true, "수업": true,
	"도서": true, "정리": true, "준비": true, "경기": true, "태국": true, "미국": true, "호주": true, "일본": true, "중국": true}

// koNameParticles follow a Korean given name (after the affectionate -이
// or directly): topic, subject, comitative, dative, possessive.
var koNameParticles = []string{"이랑", "한테서", "한테", "하고", "는", "은", "가", "이", "랑", "도", "를", "을", "의", "네", "와", "과"}

// KoGivenName returns the given name of a Korean word read as one, and its
// particle ("" when bare), or name "" when it is none. A bare word is read
// as a name only when bare is set (the caller has placed it: the first
// word of a clause followed by a predicate).
func KoGivenName(w string, bare bool) (name, particle string) {
	w = strings.Trim(w, ",.!?\"'()~")
	try := func(stem, p string) bool {
		n := utf8.RuneCountInString(stem)
		if n == 3 {
			f, size := utf8.DecodeRuneInString(stem)
			if !koSurnames[f] {
				return false
			}
			stem = stem[size:]
			n = 2
		}
		if n != 2 || koNotName[stem] {
			return false
		}
		for _, r := range stem {
			if !koNameSyllables[r] {
				return false
			}
		}
		name, particle = stem, p
		return true
	}
	for _, p := range koNameParticles {
		rest, ok := strings.CutSuffix(w, p)
		if !ok || rest == "" {
			continue
		}
		// The affectionate -이 follows a syllable with a final consonant
		// (지현이는); 는/가/와/를 a syllable without one (민수는), 은/이/과/을
		// one with one (지현은).
		if r, ok := strings.CutSuffix(rest, "이"); ok && lastBatchim(r) && try(r, p) {
			return name, particle
		}
		switch p {
		case "는", "가", "와", "를":
			if lastBatchim(rest) {
				continue
			}
		case "은", "이", "과", "을":
			if !lastBatchim(rest) {
				continue
			}
		}
		if try(rest, p) {
			return name, particle
		}
	}
	if bare && try(w, "") {
		return name, ""
	}
	return "", ""
}

func lastBatchim(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 != 0
}

// KoNamedSubject returns the given name a Korean clause opens with as its
// subject or topic — a name with 는/은/도/가/이 ("민수는 …", "지현이가 …"),
// or a bare name followed by a predicate ("민수 결혼했어", "지현 이사
// 갔대") — or "". The clause is then about that person, not the speaker.
func KoNamedSubject(clause string) string {
	w := strings.Fields(clause)
	if len(w) == 0 {
		return ""
	}
	n, p := KoGivenName(w[0], len(w) >= 2 && closesKorean(w[len(w)-1]))
	switch p {
	case "", "는", "은", "도", "가", "이":
		return n
	}
	return ""
}

// closesKorean: w is a Hangul word that closes on an ending of the table.
func closesKorean(w string) bool {
	_, ok := KoEndingOf(w)
	return ok && strings.IndexFunc(w, unicode.IsLetter) >= 0
}
