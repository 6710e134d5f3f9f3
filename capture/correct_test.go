package capture_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// correctAll records each text as an explicit correction in its own
// session and returns the lesson keys, in order.
func correctAll(t *testing.T, e *engine.Engine, texts ...string) []string {
	t.Helper()
	var keys []string
	for i, text := range texts {
		m := engine.Message{Session: fmt.Sprintf("s%d", i+1), Role: "user", Text: text, At: testNow.Add(time.Duration(i) * time.Hour)}
		res, err := capture.Correct(context.Background(), e, m)
		if err != nil {
			t.Fatalf("Correct(%q): %v", text, err)
		}
		keys = append(keys, res.Correction.LessonKey)
	}
	return keys
}

// TestCorrectRewordingsCountAsOneLesson: rewordings of one lesson, in
// English and in Korean, are one lesson counted once per message, worded
// as it was last said.
func TestCorrectRewordingsCountAsOneLesson(t *testing.T) {
	for _, c := range []struct {
		name       string
		texts      []string
		wantLesson string
	}{
		{"call me Jun", []string{"Don't call me Mr. Kim, just call me Jun.", "Stop calling me Mr. Kim, call me Jun.", "Please call me Jun, not Mr. Kim."}, "Please call me Jun, not Mr. Kim"},
		{"준이라고 불러", []string{"김 과장님이라고 부르지 마, 그냥 준이라고 불러줘.", "준이라고 불러 줘, 김 과장님 말고.", "앞으로는 김 과장님 말고 준이라고 불러 주세요."}, "앞으로는 김 과장님 말고 준이라고 불러 주세요"},
		{"commit messages in English", []string{"커밋 메시지는 영어로 써 주세요", "커밋 메시지는 항상 영어로 쓰세요.", "앞으로 커밋 메시지는 영어로 작성해 주세요."}, "앞으로 커밋 메시지는 영어로 작성해 주세요"},
		{"pnpm", []string{"Use pnpm, not npm.", "Always use pnpm instead of npm.", "Stop using npm, we use pnpm here."}, "Stop using npm, we use pnpm here"},
		{"tabs in both languages", []string{"Don't use tabs.", "탭 쓰지 마.", "No tabs, please."}, "No tabs, please"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			keys := correctAll(t, e, c.texts...)
			for _, k := range keys[1:] {
				if k != keys[0] {
					t.Fatalf("keys %q: rewordings counted as different lessons", keys)
				}
			}
			got, err := e.Store().GetCorrection(context.Background(), keys[0])
			if err != nil {
				t.Fatal(err)
			}
			if got.Count != 3 || got.Status != engine.CorrectionCandidate || got.Lesson != c.wantLesson {
				t.Fatalf("lesson %s: count %d status %s lesson %q, want 3 candidate %q", got.LessonKey, got.Count, got.Status, got.Lesson, c.wantLesson)
			}
		})
	}
}

// TestCorrectKeepsDifferentLessonsApart: lessons that share a word or two
// are not merged.
func TestCorrectKeepsDifferentLessonsApart(t *testing.T) {
	e := openCaptureEngine(t, nil)
	keys := correctAll(t, e,
		"Don't call me Mr. Kim, just call me Jun.",
		"Don't call me before 9am.",
		"Use pnpm in the web repository.",
		"Use pnpm, not yarn.",
		"Write commit messages in English.",
		"Write the release notes in Korean.",
	)
	seen := map[string]int{}
	for i, k := range keys {
		if j, dup := seen[k]; dup {
			t.Errorf("%d and %d share key %s", j, i, k)
		}
		seen[k] = i
	}
}

// TestCorrectAlwaysRecordsOrSaysWhy: short corrections are lessons; what
// cannot be one is a clear error, and nothing is counted.
func TestCorrectAlwaysRecordsOrSaysWhy(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	for _, text := range []string{"Don't use tabs.", "No emojis.", "존댓말 쓰지 마.", "앞으로 커밋 메시지는 영어로 작성해 주세요"} {
		res, err := capture.Correct(ctx, e, engine.Message{Session: "s", Text: text, At: testNow})
		if err != nil {
			t.Errorf("Correct(%q): %v", text, err)
			continue
		}
		if res.Correction == nil || res.Correction.Count != 1 {
			t.Errorf("Correct(%q): lesson %+v", text, res.Correction)
		}
	}
	for text, want := range map[string]string{
		"Just this once, skip the tests.": "one-off instruction",
		"이번 PR에서만 린트 꺼 줘.":                "context-bound instruction",
		"Don't!":                          "names nothing to key a lesson by",
		"HEARTBEAT_OK":                    "dropped by l1 rule heartbeat_ok",
		"   ":                             "empty",
	} {
		_, err := capture.Correct(ctx, e, engine.Message{Session: "s", Text: text, At: testNow})
		if err == nil || engine.ErrorCode(err) != engine.EINVALID || !strings.Contains(engine.ErrorMessage(err), want) {
			t.Errorf("Correct(%q): %v, want EINVALID saying %q", text, err, want)
		}
	}
	cs, _ := e.Store().FindCorrections(ctx, engine.CorrectionPending)
	if len(cs) != 4 {
		t.Errorf("%d pending lessons, want the 4 recorded", len(cs))
	}
}

// TestTranscriptCorrectionBelowTheLengthFloor: a marked lesson in an
// ordinary user message is counted even when L1's length floor would
// drop the message.
func TestTranscriptCorrectionBelowTheLengthFloor(t *testing.T) {
	e := openCaptureEngine(t, nil)
	res, err := capture.Capture(context.Background(), e, engine.Message{Session: "s", Role: "user", Text: "Don't use tabs.", At: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Correction == nil || res.Correction.LessonKey != "concept:spaces" {
		t.Fatalf("lesson %+v, trail %+v", res.Correction, res.Trail)
	}
	// An acknowledgement stays noise.
	res, err = capture.Capture(context.Background(), e, engine.Message{Session: "s", Role: "user", Text: "ok", At: testNow})
	if err != nil || res.Correction != nil || res.Outcome != engine.OutcomeDropped {
		t.Fatalf("ok: %+v %v", res, err)
	}
}
