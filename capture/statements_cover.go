package capture

import "strings"

// The prose beside pasted material (issue 29). A message that sends code,
// a log or a trace is sent for help; its prose is the cover note:
//
//   - a sentence that points at the material ("this throws every time",
//     "이거 돌리면 에러 나", "these keep failing") asks about it even
//     without a question or a request, so the whole message asks (readActs
//     then reads its prose as a request);
//   - in a message that asks about material, a sentence is still the
//     user's own news when it stands alone — it opens with the speaker ("I
//     moved to the platform team last week"; not a possessive, "our retry
//     wrapper keeps retrying" is the material), points at nothing (no
//     deictic, no pronoun pointing back) and names no trouble (error,
//     crash, stuck, 에러, 안 돼 …: the problem the material shows). Only
//     that sentence becomes a memory; the paste never does.

// deicticLead: words that open a sentence pointing at the material.
var deicticLead = map[string]bool{"this": true, "these": true, "this'll": true, "this's": true,
	"이거": true, "이게": true, "이건": true, "요거": true, "요게": true, "얘": true, "얘가": true, "이": true, "위에": true, "아래": true}

// pointsAtPaste reports whether sentence s opens (fillers aside) with a
// deictic word: it is about the material sent with it.
func pointsAtPaste(s string) bool {
	words := strings.Fields(lexNorm(s))
	for len(words) > 1 && leadFillers[words[0]] {
		words = words[1:]
	}
	return len(words) > 0 && deicticLead[words[0]]
}

// troubleLexicon: the words of a problem report — what pasted material is
// sent to show.
var troubleLexicon = lexicon{
	en: []string{"error*", "bug*", "crash*", "fail*", "broken", "break*", "stuck", "slow", "issue*", "problem*", "exception*", "throw*",
		"wrong", "weird", "doesn't work", "does not work", "not working", "won't", "can't", "cannot", "hang*", "freez*", "timeout*", "trace*"},
	ko: []string{"에러", "오류", "버그", "안 돼", "안돼", "안 되", "안되", "실패", "멈춰", "멈춤", "죽어", "느려", "이상해", "깨져", "터져", "문제"},
}

// ownNews reports whether a statement beside pasted material is the
// user's own news: it opens with the speaker, points at nothing and names
// no trouble.
func ownNews(s string) bool {
	norm := lexNorm(s)
	words := strings.Fields(norm)
	for len(words) > 1 && (leadFillers[words[0]] || words[0] == "fyi") {
		words = words[1:]
	}
	if len(words) < 4 || !speakerLead[words[0]] || pointsAtPaste(s) || kwFind(norm, troubleLexicon) != "" {
		return false
	}
	for i, w := range words {
		if anaphor[w] || deicticLead[w] && !hasHangul(w) && !(i+1 < len(words) && timeNoun[words[i+1]]) {
			return false // "it", "this": the material; "this week" is a time
		}
	}
	return true
}

// speakerLead: the speaker as the subject that opens a sentence — not a
// possessive, which may name the material ("our retry wrapper keeps …").
var speakerLead = map[string]bool{"i": true, "i'm": true, "i've": true, "we": true, "we're": true,
	"저는": true, "제가": true, "나는": true, "내가": true, "난": true, "전": true, "나": true, "저": true} // 나 / 저 unmarked: "나 회사에서 Go로 개발해"

// timeNoun: after "this" a time, not the material ("this week").
var timeNoun = map[string]bool{"morning": true, "afternoon": true, "evening": true, "week": true, "weekend": true, "month": true,
	"year": true, "spring": true, "summer": true, "fall": true, "autumn": true, "winter": true, "time": true, "quarter": true, "semester": true}
