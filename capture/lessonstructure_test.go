package capture

import (
	"slices"
	"testing"
)

// TestLessonStructure: the structural readings of issue #29's lesson
// identity (session 16) — each can fail on its own.
func TestLessonStructure(t *testing.T) {
	same := func(a, b string) bool {
		_, ok := lessonOverlap(lessonTerms(a), lessonTerms(b))
		return ok
	}
	// Opposites the words alone do not tell apart.
	for _, c := range [][2]string{
		{"Paginate list endpoints with a cursor, not with offset and limit.", "Paginate list endpoints with offset and limit, not with a cursor."},
		{"Log request bodies at debug level.", "Never log request bodies."},
		{"Write SQL migrations with IF NOT EXISTS so they can run twice.", "Don't add IF NOT EXISTS to migrations; I want a second run to fail loudly."},
	} {
		if same(c[0], c[1]) {
			t.Errorf("%q and %q read as one lesson: %v ~ %v", c[0], c[1], lessonTerms(c[0]), lessonTerms(c[1]))
		}
	}
	// A complaint beside the rule names terms without polarity.
	got := lessonTerms("pip 너무 느려요 ㅠ uv로 설치해줘")
	if !slices.Contains(got, aboutPrefix+"pip") || slices.Contains(got, "pip") {
		t.Errorf("complaint terms %v: want %spip", got, aboutPrefix)
	}
	if !polarityAgrees(aboutPrefix+"pip", notPrefix+"pip") || polarityAgrees("pip", notPrefix+"pip") {
		t.Error("a complaint's term must agree with either polarity, a prescribed one not with a forbidden one")
	}
	// A negator before a quotation forbids the whole phrase.
	if got := lessonTerms("End the emails with my name. No 'Best regards'."); !slices.Contains(got, notPrefix+"regard") || !slices.Contains(got, notPrefix+"best") {
		t.Errorf("quoted phrase: %v, want not_best and not_regard", got)
	}
	// Values: hours, counted nouns, a name's number; an example's number is none.
	for _, c := range []struct {
		a, b  string
		agree bool
	}{
		{"Don't put meetings on my calendar before 10am.", "Don't put meetings on my calendar after 4pm.", false},
		{"Give recipe quantities for one serving.", "Give recipe quantities for six people.", false},
		{"Save text files as UTF-8.", "Save text files as UTF-16.", false},
		{"Write durations in minutes, like 90 minutes.", "duration은 minutes로, 135분이라고 써요", true},
		{"금액은 ₩1,350,000 이렇게", "amounts like ₩1,350,000", true},
	} {
		if got := numbersAgree(lessonNumbers(c.a), lessonNumbers(c.b)); got != c.agree {
			t.Errorf("numbers of %q %v and %q %v agree = %v, want %v", c.a, lessonNumbers(c.a), c.b, lessonNumbers(c.b), got, c.agree)
		}
	}
	// An English word opening a Korean clause is no imperative.
	if prescribes("load test 아직 40%쯤 진행 중") {
		t.Error("a Korean status clause opening with an English noun read as a rule")
	}
}
