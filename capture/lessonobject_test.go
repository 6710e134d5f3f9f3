package capture_test

import (
	"strings"
	"testing"
)

// TestThinConceptKeepsItsObject: a predicate concept alone (pin, short,
// wrap) is not the lesson when the sentence names what it acts on — one
// predicate on two objects is two lessons — while a rule that names no
// object of its own keeps its concept key.
func TestThinConceptKeepsItsObject(t *testing.T) {
	for _, p := range [][2]string{
		{"Pin Docker base images to an exact version tag.", "Pin Python dependencies with == in requirements.txt."},
		{"Keep log lines short.", "Keep commit titles short."},
		{"코드는 코드 블록으로 감싸서 보여줘", "에러는 항상 감싸서 반환해줘"},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, p[0], p[1])
		if keys[0] == keys[1] {
			t.Errorf("%q and %q share lesson %s", p[0], p[1], keys[0])
		}
	}
	e := openCaptureEngine(t, nil)
	if keys := correctAll(t, e, "Don't use tabs."); keys[0] != "concept:spaces" {
		t.Errorf("\"Don't use tabs.\" keyed %s, want concept:spaces", keys[0])
	}
}

// TestLessonContextIsNotTheValue: a slot value named in a condition or in
// a recounted mistake is not what the rule prescribes.
func TestLessonContextIsNotTheValue(t *testing.T) {
	for _, c := range []struct{ text, want, not string }{
		{"When you answer in Korean, keep technical terms like commit and merge in English.", "english", "korean"},
		{"한국어로 설명할 때 기술 용어는 영어 그대로 써줘", "english", "korean"},
		{"아 또 PM 붙였네 ㅋㅋ 24h format으로 plz", "clock_24h", "clock_12h"},
		// A negation does not cross a sentence end.
		{"시간은 24시간제로 써줘. 오후 2시 말고 14:00 이런 식으로", "clock_24h", "clock_12h"},
	} {
		e := openCaptureEngine(t, nil)
		k := correctAll(t, e, c.text)[0]
		if !strings.Contains(k, c.want) || strings.Contains(k, c.not) {
			t.Errorf("%q keyed %s, want %s and not %s", c.text, k, c.want, c.not)
		}
	}
}
