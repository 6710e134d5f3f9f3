package capture_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/tiers"
)

// Own cases for the lesson signature, worded apart from the held-out set:
// rewordings converge, values and polarity keep lessons apart, a later
// opposite supersedes, and repeats in one session count once.

func TestLessonSignatureRewordingsConverge(t *testing.T) {
	for name, texts := range map[string][]string{
		"yarn":       {"We use yarn here, never npm.", "npm 말고 yarn으로 설치해줘", "Stop running npm install; yarn only."},
		"utc logs":   {"Timestamps in the logs must be UTC.", "로그 시간은 UTC로 찍어줘", "log in UTC please, not local time"},
		"no mocking": {"Don't mock the clock.", "시계는 mock 하지 마", "Stop mocking the clock, use a fake."},
		"tabs 8":     {"Indent with 8-wide tabs? No: indent with tabs, width 8.", "탭 8칸으로 들여쓰기 해줘", "indentation: tabs, eight wide"},
		// Forbidding one value of a slot of two prescribes the other.
		"lowercase": {"Never capitalise commit subjects.", "commit subject는 소문자로 써줘", "Commit subjects in lowercase, please."},
		// A carrier verb (add, 넣다, 붙이다) hands its negation to its object.
		"no semicolons": {"no semicolons in javascript", "자바스크립트에 세미콜론 넣지 마", "Don't add semicolons to javascript."},
		// An untranslated Korean verb is not a swapped value.
		"untranslated verb": {"read files with io.ReadAll, not ioutil.ReadAll", "ioutil.ReadAll 말고 io.ReadAll 써줘", "ioutil.ReadAll 쓰지 말고 io.ReadAll로 읽어"},
		// Removing is forbidding.
		"no emoji": {"Remove the emojis from commit messages.", "커밋 메시지에 이모지 넣지 마", "no emoji in commit messages 🙏 it breaks the changelog parser"},
	} {
		t.Run(name, func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			keys := correctAll(t, e, texts...)
			for _, k := range keys[1:] {
				if k != keys[0] {
					t.Fatalf("keys %q: rewordings counted apart", keys)
				}
			}
		})
	}
}

// TestLessonReasonIsNotKeyed: a reason after the rule ("the reviewers keep
// asking about context") does not key the lesson, so it neither joins the
// ask-first lesson it happens to name nor splits from its rewordings.
func TestLessonReasonIsNotKeyed(t *testing.T) {
	e := openCaptureEngine(t, nil)
	keys := correctAll(t, e, "Ask me before you open a PR.",
		"Every PR needs a linked ticket, the reviewers keep asking about context.",
		"PR마다 티켓 링크 넣어줘요", "link the ticket in each PR")
	if keys[1] == keys[0] || keys[2] != keys[1] || keys[3] != keys[1] {
		t.Fatalf("keys %q: want the ask-first lesson apart and the three ticket wordings on one key", keys)
	}
}

func TestLessonSignatureKeepsValuesAndPolarityApart(t *testing.T) {
	for _, pair := range [][2]string{
		{"Indent with 8 spaces.", "Indent with 3 spaces."},
		{"Always squash when merging.", "Never squash when merging."},
		{"Reply in Japanese.", "Reply in English."},
		{"Use zap for logging.", "Use slog for logging."},
		{"Use pnpm in the billing repo.", "Use pnpm."},
		{"Hardcode nothing; read secrets from env.", "Don't read secrets from env in tests, hardcode fakes."},
		// A short trailing clause carries the value and stays in the key.
		{"Indent with 2 spaces, not 4.", "Indent with 4 spaces, not 2."},
		{"Commit subjects in lowercase.", "Capitalise commit subjects."},
		{"Strip the emojis from release notes.", "Put an emoji in front of each release note section."},
		{"Use git grep to search.", "Use rg to search."},
		{"no semicolons in javascript", "Always add semicolons in javascript."},
		{"Delete build outputs without asking.", "Ask me before deleting anything."},
	} {
		e := openCaptureEngine(t, nil)
		keys := correctAll(t, e, pair[0], pair[1])
		if keys[0] == keys[1] {
			t.Errorf("%q and %q share lesson %s", pair[0], pair[1], keys[0])
		}
	}
}

// TestLaterOppositeLessonSupersedes: "reply in English" after "reply in
// Korean" replaces it; the Korean lesson no longer reaches promotion.
func TestLaterOppositeLessonSupersedes(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	keys := correctAll(t, e, "한국어로 답해줘", "Answer in Korean.", "Reply in English from now on.")
	if keys[0] != keys[1] || keys[2] == keys[0] {
		t.Fatalf("keys %q: want the two Korean rewordings on one lesson and English apart", keys)
	}
	old, err := e.Store().GetCorrection(ctx, keys[0])
	if err != nil || old.Status != engine.CorrectionSuperseded {
		t.Fatalf("Korean lesson %+v %v, want superseded", old, err)
	}
}

// TestLessonSightingCountsOncePerSession: a client retry and a captured
// message sent again to Correct in the same session count once; the same
// text in another session counts again.
func TestLessonSightingCountsOncePerSession(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	text := "Never commit directly to main; open a PR."
	m := engine.Message{Session: "s1", Role: "user", Text: text, At: testNow}
	if _, err := capture.Capture(ctx, e, m); err != nil {
		t.Fatal(err)
	}
	var key string
	for i := range 3 {
		m.At = testNow.Add(time.Duration(i+1) * time.Second)
		res, err := capture.Correct(ctx, e, m)
		if err != nil {
			t.Fatal(err)
		}
		key = res.Correction.LessonKey
	}
	m.Session, m.At = "s2", testNow.Add(time.Hour)
	if _, err := capture.Correct(ctx, e, m); err != nil {
		t.Fatal(err)
	}
	c, err := e.Store().GetCorrection(ctx, key)
	if err != nil || c.Count != 2 {
		t.Fatalf("lesson %s: %+v %v, want count 2 (once per session)", key, c, err)
	}
}

// TestEmbeddedCorrectionKeysOnlyItsSentence: the lesson inside a status
// update is keyed by its own sentence, and a pasted hex id is no key term.
func TestEmbeddedCorrectionKeysOnlyItsSentence(t *testing.T) {
	e := openCaptureEngine(t, nil)
	res, err := capture.Correct(context.Background(), e, engine.Message{Session: "s1", Role: "user", At: testNow,
		Text: "Deploy 7f3a9c2e went out at noon and Sora fixed the cache. Please stop renaming exported symbols without a deprecation alias. Retro is tomorrow."})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Correction
	if c.Lesson != "Please stop renaming exported symbols without a deprecation alias" {
		t.Errorf("lesson %q, want the corrective sentence only", c.Lesson)
	}
	for _, bad := range []string{"7f3a9c2e", "sora", "cache", "retro", "deploy"} {
		if strings.Contains(c.LessonKey, bad) {
			t.Errorf("key %s holds %q from the surrounding talk", c.LessonKey, bad)
		}
	}
}

// TestPromotionProposesLatestWordingAndSharedScope: the proposal words the
// rule as it was last said, scoped to the project only when every sighting
// was in it.
func TestPromotionProposesLatestWordingAndSharedScope(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		projects  [3]string
		wantScope string
	}{
		{[3]string{"web", "web", "web"}, "project:web"},
		{[3]string{"web", "api", "web"}, engine.ScopeGlobal},
	} {
		e := openCaptureEngine(t, nil)
		texts := []string{"Use slog for logging, not log.Printf.", "로그는 slog로 찍어줘", "Switch the logging to slog, no Printf."}
		for i, text := range texts {
			m := engine.Message{Session: "p" + string(rune('1'+i)), Project: c.projects[i], Role: "user", Text: text, At: testNow.Add(time.Duration(i) * time.Hour)}
			if _, err := capture.Correct(ctx, e, m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{}); err != nil {
			t.Fatal(err)
		}
		ps, err := e.Store().FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalPromote})
		if err != nil || len(ps) != 1 {
			t.Fatalf("%d promote proposals (%v), want 1", len(ps), err)
		}
		ev, err := engine.ParsePromotion(ps[0])
		if err != nil {
			t.Fatal(err)
		}
		if ev.Wording != "Switch the logging to slog, no Printf" || ev.Scope != c.wantScope {
			t.Errorf("projects %v: wording %q scope %s, want the latest wording and %s", c.projects, ev.Wording, ev.Scope, c.wantScope)
		}
	}
}

// TestLaterOppositeTermsLessonSupersedes: a terms lesson said the other
// way round ("allow" after "forbid") replaces the earlier one, as a
// concept lesson's opposite does; a rewording does not.
func TestLaterOppositeTermsLessonSupersedes(t *testing.T) {
	e := openCaptureEngine(t, nil)
	ctx := context.Background()
	keys := correctAll(t, e, "Forbid trailing commas in multi-line arrays.", "Don't allow trailing commas in multi-line arrays.", "Allow trailing commas in multi-line arrays.")
	if keys[0] != keys[1] || keys[2] == keys[0] {
		t.Fatalf("keys %q: want the two forbidding wordings on one lesson and allowing apart", keys)
	}
	old, err := e.Store().GetCorrection(ctx, keys[0])
	if err != nil || old.Status != engine.CorrectionSuperseded {
		t.Fatalf("forbidding lesson %+v %v, want superseded", old, err)
	}
	cur, err := e.Store().GetCorrection(ctx, keys[2])
	if err != nil || cur.Status == engine.CorrectionSuperseded {
		t.Fatalf("allowing lesson %+v %v, want open", cur, err)
	}
}
