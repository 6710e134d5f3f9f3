package capture_test

import (
	"context"
	"testing"
)

// TestCorrectJoinsLessonAcrossKeyKinds: one rule, one wording keyed by the
// concept table (concept:not_mock+test) and one it keys by terms (목 is no
// form of the table's mock), is one lesson in either order, counted under
// the key it was first recorded with.
func TestCorrectJoinsLessonAcrossKeyKinds(t *testing.T) {
	for _, texts := range [][]string{
		{"No mocking in the store tests.", "store 테스트에서 목 쓰지 마"},
		{"store 테스트에서 목 쓰지 마", "No mocking in the store tests."},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, texts...)
		if keys[0] != keys[1] {
			t.Errorf("%q: keys %q, want one lesson", texts, keys)
			continue
		}
		got, err := e.Store().GetCorrection(context.Background(), keys[0])
		if err != nil {
			t.Fatal(err)
		}
		if got.Count != 2 {
			t.Errorf("%q: lesson %s at count %d, want 2", texts, got.LessonKey, got.Count)
		}
	}
}

// TestCorrectNeverJoinsConflictingValues: the opposite polarity, another
// value of a slot, another number, another tool — across key kinds or
// within one — are two lessons.
func TestCorrectNeverJoinsConflictingValues(t *testing.T) {
	for _, p := range [][2]string{
		{"Mock the database in the store tests.", "store 테스트에서 목 쓰지 마"},
		{"store 테스트에서 목 쓰지 마", "Mock the database in the store tests."},
		{"squash merge PRs into main so main has one commit per PR", "use rebase merge for PRs, keep every commit of the branch on main"},
		{"use rebase merge for PRs, keep every commit of the branch on main", "squash merge PRs into main so main has one commit per PR"},
		{"Answer in Korean.", "Answer in English."},
		{"한국어로 답해줘", "Answer in English."},
		{"Indent with 2 spaces.", "Indent with 4 spaces."},
		{"Use tabs for indentation.", "Use spaces for indentation."},
		{"Run the tests before you push.", "Run the linter before you push."},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, p[0], p[1])
		if keys[0] == keys[1] {
			t.Errorf("%q and %q share lesson %s", p[0], p[1], keys[0])
		}
	}
}

// TestCorrectKeepsStatedValuesApart: two rules that differ only in a
// stated number, or that forbid one thing and prescribe another on one
// frame, are two lessons.
func TestCorrectKeepsStatedValuesApart(t *testing.T) {
	for _, p := range [][2]string{
		{"Keep commit titles under 72 characters.", "커밋 제목은 50자 안쪽으로 써줘"},
		{"Put the author in the file header.", "Don't put the date in file headers."},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, p[0], p[1])
		if keys[0] == keys[1] {
			t.Errorf("%q and %q share lesson %s", p[0], p[1], keys[0])
		}
	}
}
