package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
)

// Names across scripts and by role: the user names a person in one script
// and asks in the other (Sena / 세나), or asks by role ("my wife") about a
// memory that names only the person. A query about someone else ("What
// does Hana's husband do?") expands no role: the book cannot tell whose
// role it read.
func TestNamesAcrossScriptsAndRoles(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	mk := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-3 * day)})
	}
	mk("intro", "my wife Sena and I finally booked the wedding photos")
	mk("job", "Sena translates picture books from French for a publisher in Paju")
	mk("ko-cold", "세나가 감기 걸려서 오늘 하루 종일 누워 있었어")
	mk("pet", "우리 토끼 모찌 이빨 다듬으러 병원 다녀옴")
	mk("other", "Hana said the new ferry timetable starts in March")
	for i := range 40 {
		mk(fmt.Sprintf("filler%d", i), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", i))
	}
	for _, c := range []struct {
		query, want, note string
		expands           bool
	}{
		{"what does my wife do for a living?", "job", "role wife", true},
		{"did Sena catch a cold?", "ko-cold", "script of sena", true},
		{"세나 무슨 일 해?", "job", "script of 세나", true},
		{"What does Hana's wife translate?", "", "role", false},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, ReadOnly: true})
		note := tr.Stage("preprocess").Notes["name_expansions"]
		if got := strings.Contains(note, c.note); got != c.expands {
			t.Errorf("%q: name_expansions = %q, want %q: %v", c.query, note, c.note, c.expands)
		}
		if c.want != "" && !slices.Contains(enginetest.SurvivorKeys(tr), c.want) {
			t.Errorf("%q: survivors %v, want %s", c.query, enginetest.SurvivorKeys(tr), c.want)
		}
	}
}
