package capture_test

import (
	"context"
	"strings"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestMemoryRequestOfAFactIsNotALesson: "don't forget that …", "잊지 마,
// …이야" ask to keep a fact, not how to work: memory_correct says so and
// counts nothing, and a transcript message records no lesson.
func TestMemoryRequestOfAFactIsNotALesson(t *testing.T) {
	ctx := context.Background()
	for _, text := range []string{
		"Don't forget that my sister's birthday is May 3.",
		"Remember, my sister is allergic to peanuts.",
		"잊지 마, 내 동생 생일은 5월 3일이야.",
		"내 동생 생일이 5월 3일이라는 거 잊지 마",
		"기억해 둬: 우리 팀 회의는 매주 화요일이야.",
		// A fact about the world restricted by "only", a frequency adverb
		// or a negation is still a fact, not a rule.
		"Don't forget: the staging database is read-only on Fridays.",
		"Remember that the office is only open until 6 on Saturdays.",
		"Keep in mind, the shuttle never runs on public holidays.",
		"잊지 마, 스테이징 DB는 금요일에만 읽기 전용이야.",
	} {
		e := openCaptureEngine(t, nil)
		_, err := capture.Correct(ctx, e, engine.Message{Session: "s1", Role: "user", Text: text, At: testNow})
		if engine.ErrorCode(err) != engine.EINVALID || !strings.Contains(err.Error(), "memory_capture") {
			t.Errorf("Correct(%q) = %v, want EINVALID pointing to memory_capture", text, err)
		}
		res, err := capture.Capture(ctx, e, engine.Message{Session: "s2", Role: "user", Text: text, At: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if res.Correction != nil {
			t.Errorf("Capture(%q) recorded lesson %s", text, res.Correction.LessonKey)
		}
	}
}

// TestMemoryRequestOfARuleIsALesson: a memory request whose complement
// obliges or forbids, or addresses the assistant, is an instruction.
func TestMemoryRequestOfARuleIsALesson(t *testing.T) {
	ctx := context.Background()
	for _, text := range []string{
		"Don't forget: the tests must pass before you push.",
		"Remember, force pushing to main is not allowed.",
		"Don't forget to only use pnpm in this repo.",
		"잊지 마, 금요일엔 배포 금지야.",
	} {
		e := openCaptureEngine(t, nil)
		if _, err := capture.Correct(ctx, e, engine.Message{Session: "s1", Role: "user", Text: text, At: testNow}); err != nil {
			t.Errorf("Correct(%q) = %v, want a lesson", text, err)
		}
	}
}

// TestDontForgetToIsAlways: a negated forgetting verb prescribes what it
// falls on, so "don't forget to X" and "always X" (잊지 말고 X, 항상 X) are
// one lesson, and the negation does not fall on X.
func TestDontForgetToIsAlways(t *testing.T) {
	for _, texts := range [][]string{
		{"Don't forget to run the tests before you commit.", "Always run the tests before you commit."},
		{"잊지 말고 커밋 전에 테스트 돌려", "커밋 전에 항상 테스트 돌려"},
		{"Don't forget to use tabs.", "Use tabs."},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, texts...)
		if keys[0] != keys[1] {
			t.Errorf("%q: keys %q, want one lesson", texts, keys)
		}
		if strings.Contains(keys[0], "not_") {
			t.Errorf("%q: key %s negates what is prescribed", texts, keys[0])
		}
	}
}
