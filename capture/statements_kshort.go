package capture

import (
	"strings"
	"unicode"

	"memtrace/engine"
)

// Korean says an account of the day in a dozen characters: "어제 친구
// 만나고 영화 봤어", "엄마가 밥 굶지 말라고 또 잔소리하더라". Below L1's
// length floors such a message is kept (floorWaiver) when it reads as
// statements only, has three words or more, ends in a finite verb and is
//
//   - a dated past event: a time word (어제, 지난주, 주말에, 아까 …) and a
//     past (…았/었/했…) or retrospective (…더라) ending; or
//   - what a person close to the user did or said: a kin or partner noun
//     marked as subject or topic (엄마가, 남편은, 친구도 …) and a past or
//     retrospective ending.
//
// "오늘 날씨 좋네" (no past event, no person) stays below the floor.
func statesKoEvent(m engine.Message) string {
	if m.Role != "user" || !hasHangul(m.Text) {
		return ""
	}
	words := strings.Fields(strings.TrimRightFunc(m.Text, func(r rune) bool { return !unicode.Is(unicode.Hangul, r) }))
	if len(words) < 3 || !koPastEnd(words[len(words)-1]) {
		return ""
	}
	cue := ""
	for _, w := range words[:len(words)-1] {
		if koTimeWord[w] {
			cue = w
			break
		}
		for _, p := range []string{"가", "이", "는", "은", "도", "랑", "하고"} {
			if n, ok := strings.CutSuffix(w, p); ok && koKin[n] {
				cue = w
				break
			}
		}
		if cue != "" {
			break
		}
	}
	if cue == "" {
		return ""
	}
	if !allStatements(m.Text) {
		return ""
	}
	return cue
}

// koPastEnd: a Korean predicate in the past (a syllable with the past
// ㅆ: 봤어, 했어요, 갔다) or the retrospective …더라/…던데.
func koPastEnd(w string) bool {
	return koPast(w) || strings.HasSuffix(w, "더라") || strings.HasSuffix(w, "더라고") || strings.HasSuffix(w, "더라구")
}

// koTimeWord: words that date an event in the past.
var koTimeWord = map[string]bool{"어제": true, "어제는": true, "그저께": true, "그제": true, "아까": true, "방금": true,
	"지난주": true, "지난주에": true, "지난달": true, "지난달에": true, "작년": true, "작년에": true, "주말에": true,
	"지난": true, "어젯밤": true, "오늘": true, "오늘은": true, "아침에": true, "점심에": true, "저녁에": true}

// koKin: people close to the user, named by their relation.
var koKin = map[string]bool{"엄마": true, "아빠": true, "어머니": true, "아버지": true, "부모님": true, "남편": true, "아내": true,
	"와이프": true, "신랑": true, "형": true, "누나": true, "언니": true, "오빠": true, "동생": true, "딸": true, "아들": true,
	"할머니": true, "할아버지": true, "남자친구": true, "여자친구": true, "남친": true, "여친": true, "친구": true, "애들": true,
	"아이": true, "시어머니": true, "장모님": true, "이모": true, "삼촌": true, "사촌": true, "팀장님": true, "상사": true, "동료": true}
