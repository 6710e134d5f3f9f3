package capture

import (
	"slices"
	"strings"
	"testing"
)

// TestLessonTextFindsTheRuleInsideChat: the corrective sentence of a
// status message is found by its clauses — a rule stated in a later
// clause, status talk before laughter (ㅎㅎ) and a chat opener are cut off.
func TestLessonTextFindsTheRuleInsideChat(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"Standup moved to ten. Also — in the PR you wrote master again; it's main now, use main in every command. See you at lunch.", "use main"},
		{"배포 다 끝났어요 ㅎㅎ btw 커밋 메시지는 영어로 써주세요. 내일은 휴가예요.", "커밋 메시지는 영어로 써주세요"},
		{"어제 등산 갔다옴. 아까 요약할 때 표로 보여줬잖아, 앞으로 요약은 목록으로만 해줘. 금요일 회의는 취소래", "앞으로 요약은 목록으로만 해줘"},
	} {
		got := lessonText(c.msg)
		if !strings.Contains(got, c.want) {
			t.Errorf("lessonText(%q) = %q, want it to hold %q", c.msg, got, c.want)
		}
		for _, not := range []string{"Standup", "lunch", "배포", "휴가", "등산", "표로", "회의", "btw"} {
			if strings.Contains(got, not) {
				t.Errorf("lessonText(%q) = %q holds the talk %q", c.msg, got, not)
			}
		}
	}
}

// TestLessonTermsPolarityOfTheRule: the rule's own clause sets a term's polarity (a
// reason after it does not undo it), the Korean -지 before 말다 is the
// verb's stem (a carrier, so the negation falls on its object), and "not
// only" (X만 하지 말고, not just X) adds rather than forbids.
func TestLessonTermsPolarityOfTheRule(t *testing.T) {
	for _, c := range []struct {
		text      string
		want, not []string
	}{
		{"이모지 달지 말고 텍스트로만 써줘, 이모지 너무 많아", []string{"not_emoji"}, []string{"emoji"}},
		{"설명만 하지 말고 링크도 붙여줘", []string{"description", "link"}, []string{"not_description"}},
		{"Not just the summary, include the ticket link too", []string{"conclusion"}, []string{"not_conclusion"}},
	} {
		got := lessonTerms(c.text)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("lessonTerms(%q) = %q, want %q", c.text, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("lessonTerms(%q) = %q, must not hold %q", c.text, got, w)
			}
		}
	}
}

// TestLessonValuesMustAgree: stated numbers and date/time formats are
// values of the rule: another value is another lesson.
func TestLessonValuesMustAgree(t *testing.T) {
	if got := lessonNumbers("금액은 ₩1,350,000 이렇게, 50자 안쪽, uint32_t, v1.2, 10 lines"); !got["1350000"] || !got["50"] || !got["10"] || got["32"] || got["1"] || len(got) != 3 {
		t.Errorf("lessonNumbers = %v, want 1350000, 50, 10 only", got)
	}
	if numbersAgree(lessonNumbers("keep titles under 72 characters"), lessonNumbers("제목은 50자 안쪽으로")) {
		t.Error("72 and 50 agree")
	}
	if !numbersAgree(lessonNumbers("keep titles under 72 characters"), lessonNumbers("제목은 72자까지, 넘으면 줄여줘")) ||
		!numbersAgree(lessonNumbers("keep titles short"), lessonNumbers("제목은 72자까지")) {
		t.Error("one number (or none on one side) must agree")
	}
	a, b := lessonTerms("Write dates as MM/DD/YYYY."), lessonTerms("Write dates as DD/MM/YYYY.")
	if !slices.Contains(a, "mmddyyyy") || !slices.Contains(b, "ddmmyyyy") {
		t.Fatalf("formats not read as one value: %q, %q", a, b)
	}
	if _, same := lessonOverlap(a, b); same {
		t.Errorf("%q and %q are one lesson", a, b)
	}
}
