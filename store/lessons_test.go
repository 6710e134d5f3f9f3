package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// A lesson's sightings are rows: SaveCorrection adds the occurrences not
// yet recorded and never duplicates one (by message id, or for a sighting
// without one by time, session and text); GetCorrection and
// FindCorrections return them in the order added; AddSighting refuses a
// message the lesson already holds; FindSightings finds a message's or a
// session's sightings; GetLesson and LessonHeads return heads without
// occurrences — on both backends.
func TestLessonSightingsAreRows(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		ctx := context.Background()
		db, err := store.Open(ctx, be.Fresh(t), newClock().Now)
		must(t, err)
		defer db.Close()
		at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		occ := []engine.Occurrence{
			{MessageID: "m1", Session: "s1", Text: "don't use tabs", At: at},
			{Session: "s2", Text: "탭 쓰지 마", At: at.Add(time.Minute)}, // no message id (an import)
		}
		c := &engine.Correction{LessonKey: "concept:not_tabs", Lesson: "don't use tabs", Count: 2, FirstSeen: at, LastSeen: at.Add(time.Minute),
			Status: engine.CorrectionPending, Occurrences: occ}
		must(t, db.SaveCorrection(ctx, c))
		must(t, db.SaveCorrection(ctx, c)) // saved again whole: nothing doubles
		added, err := db.AddSighting(ctx, c.ID, engine.Occurrence{MessageID: "m1", Session: "s9", Text: "again", At: at.Add(time.Hour)})
		must(t, err)
		if added {
			t.Error("AddSighting added a second sighting of message m1")
		}
		third := engine.Occurrence{MessageID: "m3", Session: "s1", Text: "no tabs please", At: at.Add(2 * time.Hour)}
		added, err = db.AddSighting(ctx, c.ID, third)
		must(t, err)
		if !added {
			t.Error("AddSighting refused a new message")
		}
		want := append(append([]engine.Occurrence{}, occ...), third)
		got, err := db.GetCorrection(ctx, c.LessonKey)
		must(t, err)
		if !reflect.DeepEqual(got.Occurrences, want) {
			t.Errorf("GetCorrection occurrences %+v, want %+v", got.Occurrences, want)
		}
		all, err := db.FindCorrections(ctx, "")
		must(t, err)
		if len(all) != 1 || !reflect.DeepEqual(all[0].Occurrences, want) {
			t.Errorf("FindCorrections %+v, want one lesson with %+v", all, want)
		}
		s1, err := db.FindSightings(ctx, c.ID, "", "s1")
		must(t, err)
		if len(s1) != 2 || s1[0].MessageID != "m1" || s1[1].MessageID != "m3" {
			t.Errorf("sightings of session s1: %+v, want m1 and m3", s1)
		}
		m1, err := db.FindSightings(ctx, c.ID, "m1", "")
		must(t, err)
		if len(m1) != 1 || m1[0].Session != "s1" {
			t.Errorf("sightings of message m1: %+v", m1)
		}
		head, err := db.GetLesson(ctx, c.LessonKey)
		must(t, err)
		heads, err := db.LessonHeads(ctx)
		must(t, err)
		if head.Occurrences != nil || len(heads) != 1 || heads[0].Occurrences != nil || head.Count != 2 {
			t.Errorf("heads carry occurrences or lost the count: %+v %+v", head, heads)
		}
		if _, err := db.GetLesson(ctx, "terms:none"); engine.ErrorCode(err) != engine.ENOTFOUND {
			t.Errorf("GetLesson of a missing key: %v, want ENOTFOUND", err)
		}
	})
}

// A database written before migration 33 holds a lesson's sightings in
// its occurrences JSON array: the migration moves them into rows, which
// GetCorrection returns as the array held them, and empties the array.
func TestMigration33MovesOccurrencesIntoRows(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, be storetest.Backend) {
		ctx := context.Background()
		dsn := be.Fresh(t)
		db, err := store.Open(ctx, dsn, newClock().Now)
		must(t, err)
		at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		c := &engine.Correction{LessonKey: "terms:call+jun+not_kim", FirstSeen: at, LastSeen: at, Count: 2, Status: engine.CorrectionPending}
		must(t, db.SaveCorrection(ctx, c))
		space := db.Space()
		must(t, db.Close())
		rawExec(t, be, dsn, space,
			`DROP TABLE lesson_sightings`,
			`UPDATE corrections SET occurrences = '[{"message_id":"a","session":"s1","text":"call me Jun","at":"2026-03-01T09:00:00Z"},{"text":"Jun, not Mr. Kim","at":"2026-03-02T10:30:00Z"}]'`,
			`DELETE FROM migrations WHERE name = '0033_lesson_sightings.sql'`)
		db, err = store.Open(ctx, dsn, newClock().Now)
		must(t, err)
		defer db.Close()
		got, err := db.GetCorrection(ctx, c.LessonKey)
		must(t, err)
		want := []engine.Occurrence{
			{MessageID: "a", Session: "s1", Text: "call me Jun", At: at},
			{Text: "Jun, not Mr. Kim", At: time.Date(2026, 3, 2, 10, 30, 0, 0, time.UTC)},
		}
		if !reflect.DeepEqual(got.Occurrences, want) || got.Count != 2 {
			t.Errorf("after migration 33: count %d, occurrences %+v; want 2, %+v", got.Count, got.Occurrences, want)
		}
	})
}
