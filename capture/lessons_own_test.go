package capture_test

import (
	"path/filepath"
	"testing"
)

// ownLessonsFloor is the ratchet of testdata/lessons7.json, the session 14
// lessons helper's own cases (10 rule groups in English, Korean and mixed
// wording, 14 opposite or different-object pairs, 2 retries, 1 embedded),
// written and committed before the mechanism was changed or the cases run;
// the floor is the pass count measured then, raised by each change that
// passes more.
const ownLessonsFloor = 22.0 / 27 // main before any change: 13 of 27

// TestOwnLessons measures lesson identity on testdata/lessons7.json the
// way TestHeldoutLessons measures the held-out sets.
func TestOwnLessons(t *testing.T) {
	lessonSetAt(t, filepath.Join("testdata", "lessons7.json"), "lessons7.json", ownLessonsFloor)
}

// ownLessons8Floor is the ratchet of testdata/lessons8.json, the session 15
// lessons helper's own cases (15 rule groups in English, Korean and mixed
// wording, rules whose object is named in a complaint among them; 15
// opposite, different-object or different-scope pairs; 3 retries; 3
// embedded), committed before they were run or the mechanism changed; the
// floor is the pass count measured on the change that last raised it.
const ownLessons8Floor = 30.0 / 36 // main before any change: 19 of 36

// TestOwnLessons8 measures lesson identity on testdata/lessons8.json the
// way TestHeldoutLessons measures the held-out sets.
func TestOwnLessons8(t *testing.T) {
	lessonSetAt(t, filepath.Join("testdata", "lessons8.json"), "lessons8.json", ownLessons8Floor)
}
