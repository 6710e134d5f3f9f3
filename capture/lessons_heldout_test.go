package capture_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/tiers"
)

// heldoutLessonSet is testdata/heldout/lessons.json (its README gives the
// schema). The file is never edited here.
type heldoutLessonSet struct {
	Groups []struct {
		ID         string   `json:"id"`
		Rewordings []string `json:"rewordings"`
	} `json:"groups"`
	Opposites []struct {
		A, B, Why string
	} `json:"opposites"`
	Retries []struct {
		ID, Session, Text string
		Times             int
	} `json:"retries"`
	Embedded []struct {
		ID, Lang, Message, Lesson string
		NotLessons                []string `json:"not_lessons"`
	} `json:"embedded"`
}

// heldoutLessonsFloors are the ratchets: the held-out pass rate of each
// file measured after the last change to the lesson mechanism (lessons3's
// 21/37 on main before any mechanism was changed against it, 22/37 after
// session 9's, 23/37 after issue #29's Korean key stems, whose endings list was
// extended with lessons3's Korean rewordings in view, so it is no longer
// blind; lessons2's concept rows were extended after reading its
// failures, so its 1.0 is a ceiling, not a blind measure; session 12's
// clause, polarity, value and glossary mechanisms raised lessons3 to 30/37,
// lessons4 to 22/36 — both read while changing them, no longer blind — and
// the blind lessons5 to 22/33; session 14's thin-concept, context-clause,
// frame-value and negation-head mechanisms raised lessons3 to 32/37,
// lessons4 to 29/36, and the blind lessons5 to 24/33 and lessons6 to
// 24/36; lessons7, the blind seventh set of session 15, 18/36 on main
// before any change; lessons8, session 16's development set (readable,
// written without reading code), 21/39 on int16 before any change, 27/39
// after session 16's structural reading — read while changing it; that
// change raised the blind lessons6 to 26/36 and lessons7 to 19/36,
// aggregates only, run once at its end). Raise one when
// a change passes more cases; never lower it to let a change through.
var heldoutLessonsFloors = map[string]float64{"lessons.json": 1.0, "lessons2.json": 1.0, "lessons3.json": 32.0 / 37, "lessons4.json": 30.0 / 36, "lessons5.json": 26.0 / 33, "lessons6.json": 26.0 / 36, "lessons7.json": 19.0 / 36, "lessons8.json": 27.0 / 39, "lessons9.json": 20.0 / 40, "lessons11.json": 28.0 / 44} // lessons5, lessons6: blind, aggregates only, after session 14's object, context and frame-value change

// TestHeldoutLessons measures lesson identity on the held-out set, every
// case through capture.Correct (what memory_correct calls), each rewording
// in its own session:
//
//   - groups, all in one store: every rewording of a group is one lesson at
//     count len(rewordings), no other group's rewording joins it, and one
//     heartbeat writes exactly one promote proposal for it;
//   - opposites, each pair in a fresh store: the two never share a lesson;
//   - retries: the same text sent `times` times in one session (seconds
//     apart, as a client resends) counts once;
//   - embedded: a status update with one corrective sentence is keyed by
//     that sentence only: neither the lesson's key nor its sentence holds a
//     word of the unrelated talk, and no number is a key term.
//
// Every failing case is logged with why; the test fails when the pass rate
// drops below heldoutLessonsFloor.
func TestHeldoutLessons(t *testing.T) {
	for _, name := range []string{"lessons.json", "lessons2.json", "lessons3.json", "lessons4.json", "lessons5.json", "lessons6.json", "lessons7.json", "lessons8.json", "lessons9.json", "lessons11.json"} {
		t.Run(name, func(t *testing.T) { heldoutLessons(t, name, heldoutLessonsFloors[name]) })
	}
}

func heldoutLessons(t *testing.T, name string, floor float64) {
	lessonSetAt(t, filepath.Join("..", "testdata", "heldout", name), name, floor)
}

// lessonSetAt runs the lesson-identity measure of TestHeldoutLessons over
// the set at path (the held-out files' shape), logged as name.
func lessonSetAt(t *testing.T, path, name string, floor float64) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var set heldoutLessonSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pass, total := 0, 0
	score := func(kind, id string, ok bool, why string) {
		total++
		if ok {
			pass++
			return
		}
		t.Logf("FAIL %s %s: %s", kind, id, why)
	}

	// Groups.
	e := openCaptureEngine(t, nil)
	keys := map[string][]string{} // group → lesson key of each rewording
	owner := map[string]string{}  // lesson key → first group on it
	n := 0
	for _, g := range set.Groups {
		for _, text := range g.Rewordings {
			n++
			m := engine.Message{Session: fmt.Sprintf("g%d", n), Role: "user", Text: text, At: testNow.Add(time.Duration(n) * time.Minute)}
			res, err := capture.Correct(ctx, e, m)
			key := "error: " + fmt.Sprint(err)
			if err == nil {
				key = res.Correction.LessonKey
			}
			keys[g.ID] = append(keys[g.ID], key)
			if _, ok := owner[key]; !ok {
				owner[key] = g.ID
			}
		}
	}
	rep, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	proposals := map[string]int{}
	for _, p := range rep.Proposals {
		if p.Kind == engine.ProposalPromote {
			proposals[p.LessonKey]++
		}
	}
	pairs, samePairs := 0, 0
	for _, g := range set.Groups {
		ks := keys[g.ID]
		for i := range ks {
			for j := i + 1; j < len(ks); j++ {
				pairs++
				if ks[i] == ks[j] && !strings.HasPrefix(ks[i], "error") {
					samePairs++
				}
			}
		}
		why := ""
		for _, k := range ks[1:] {
			if k != ks[0] {
				why = fmt.Sprintf("rewordings on %d keys %q", len(distinct(ks)), ks)
				break
			}
		}
		if why == "" {
			c, err := e.Store().GetCorrection(ctx, ks[0])
			switch {
			case err != nil:
				why = fmt.Sprintf("key %s: %v", ks[0], err)
			case c.Count != len(ks):
				why = fmt.Sprintf("lesson %s at count %d, want %d (other groups merged in?)", ks[0], c.Count, len(ks))
			case owner[ks[0]] != g.ID:
				why = fmt.Sprintf("lesson %s is shared with group %s", ks[0], owner[ks[0]])
			case proposals[ks[0]] != 1:
				why = fmt.Sprintf("lesson %s has %d promote proposals after heartbeat, want 1", ks[0], proposals[ks[0]])
			}
		}
		score("group", g.ID, why == "", why)
	}
	t.Logf("groups: %d of %d rewording pairs on one key", samePairs, pairs)

	// Opposites.
	for i, o := range set.Opposites {
		e := openCaptureEngine(t, nil)
		var ks []string
		why := ""
		for j, text := range []string{o.A, o.B} {
			m := engine.Message{Session: fmt.Sprintf("o%d", j), Role: "user", Text: text, At: testNow.Add(time.Duration(j) * time.Minute)}
			res, err := capture.Correct(ctx, e, m)
			if err != nil {
				why = fmt.Sprintf("%q not recorded: %v", text, err)
				break
			}
			ks = append(ks, res.Correction.LessonKey)
		}
		if why == "" && ks[0] == ks[1] {
			why = fmt.Sprintf("%q and %q (%s) share lesson %s", o.A, o.B, o.Why, ks[0])
		}
		score("opposite", fmt.Sprint(i+1), why == "", why)
	}

	// Retries.
	for _, r := range set.Retries {
		e := openCaptureEngine(t, nil)
		var c *engine.Correction
		why := ""
		for i := range r.Times {
			m := engine.Message{Session: r.Session, Role: "user", Text: r.Text, At: testNow.Add(time.Duration(i) * 3 * time.Second)}
			res, err := capture.Correct(ctx, e, m)
			if err != nil && i == 0 {
				why = fmt.Sprintf("%q not recorded: %v", r.Text, err)
				break
			}
			if err == nil {
				c = res.Correction
			}
		}
		if why == "" {
			if got, err := e.Store().GetCorrection(ctx, c.LessonKey); err != nil {
				why = err.Error()
			} else if got.Count != 1 {
				why = fmt.Sprintf("%d identical sends in session %s: lesson %s at count %d, want 1", r.Times, r.Session, got.LessonKey, got.Count)
			}
		}
		score("retry", r.ID, why == "", why)
	}

	// Embedded corrective sentences.
	for _, em := range set.Embedded {
		e := openCaptureEngine(t, nil)
		res, err := capture.Correct(ctx, e, engine.Message{Session: "e1", Role: "user", Text: em.Message, At: testNow})
		why := ""
		if err != nil {
			why = fmt.Sprintf("not recorded: %v", err)
		} else {
			c := res.Correction
			lesson := strings.ToLower(c.Lesson)
			for _, nl := range em.NotLessons {
				for _, tok := range textnorm.StableTokens(nl) {
					if len([]rune(tok)) < 2 {
						continue
					}
					if strings.Contains(c.LessonKey, tok) || strings.Contains(lesson, tok) {
						why += fmt.Sprintf("; %q (from %q) in key %s or lesson %q", tok, nl, c.LessonKey, c.Lesson)
					}
				}
			}
			for _, tok := range keyParts(c.LessonKey) {
				if strings.ContainsAny(tok, "0123456789") {
					why += fmt.Sprintf("; number %q is a key term of %s", tok, c.LessonKey)
				}
			}
			if len([]rune(c.Lesson)) > len([]rune(em.Message))/2 {
				why += fmt.Sprintf("; lesson %q is most of the message, not its corrective sentence", c.Lesson)
			}
			why = strings.TrimPrefix(why, "; ")
		}
		score("embedded", em.ID, why == "", why)
	}

	rate := float64(pass) / float64(total)
	t.Logf("held-out %s: %d of %d cases pass (%.3f), floor %.3f", name, pass, total, rate, floor)
	if rate < floor {
		t.Errorf("held-out %s pass rate %.3f is below the floor %.3f", name, rate, floor)
	}
}

func distinct(ss []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range ss {
		out[s] = true
	}
	return out
}

// keyParts are the terms or concepts of a lesson key.
func keyParts(key string) []string {
	_, rest, _ := strings.Cut(key, ":")
	return strings.FieldsFunc(rest, func(r rune) bool { return r == '+' })
}
