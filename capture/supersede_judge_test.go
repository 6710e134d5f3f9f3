package capture_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/ollama"
)

// TestJudgeAssistedSupersession runs the Ollama capture judge (the real
// client against recorded answers) over an old fact and a later message:
// the judge is shown the old fact as a candidate and decides for it, the
// rule's decision is in the trail beside the judge's, an answer without
// "updates" leaves the rule to decide, and an invalid one is held.
func TestJudgeAssistedSupersession(t *testing.T) {
	cases := []struct {
		name, old, update, answer string
		superseded                bool
		by                        string // "rule" or the judge
		trail                     []string
	}{
		{"judge and rule agree", "내 핸드폰은 갤럭시 S21이야.", "아이폰 15로 바꿨어, 카메라가 훨씬 좋아.", "chat_capture_update.ndjson",
			true, "judge:ollama:" + ollamatest.Model, []string{"updates #1 of the candidates shown (#1)", "named by judge:ollama:" + ollamatest.Model + "; the rule agrees (same subject \"phone\""}},
		{"judge finds what the lexicon misses", "The Kestrel frontend is written in React with a small Redux store.", "The Kestrel UI is built with Svelte now, with much less code than the old version and no Redux store at all.", "chat_capture_update.ndjson",
			true, "judge:ollama:" + ollamatest.Model, []string{"named by judge:ollama:" + ollamatest.Model + "; the rule would not supersede it", "rule: change marker \"X is Y now\" but no older active fact about kestrel ui"}},
		{"judge names none: the rule's choice is kept current", "I live in Seoul, near Mapo.", "I moved to Busan in April and live near Haeundae beach.", "chat_capture_update_none.ndjson",
			false, "", []string{"updates none of the candidates shown (#1)", "rule: would supersede #1 \"I live in Seoul, near Mapo.\" (same subject \"home\", change marker \"moved to\"); judge:ollama:" + ollamatest.Model + " did not name it: kept current"}},
		{"judge silent on updates: the rule decides", "Our CI runs on Jenkins with a nightly build.", "We moved CI to GitHub Actions this week.", "chat_capture_store.ndjson",
			true, "rule", []string{"said nothing about updates of the candidates shown (#1): the rule decides", "same subject \"ci\""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := ollamatest.New(t, func(text string) string {
				if text == tc.update {
					return tc.answer
				}
				return "chat_capture_store.ndjson"
			})
			j := ollama.NewCaptureJudge(ollama.NewClient(ollama.ClientConfig{Host: srv.URL(), Timeout: 5 * time.Second}), ollama.Options{Model: ollamatest.Model})
			e := openCaptureEngine(t, j)
			old := captureAt(t, e, "old", tc.old, onDay(0))
			up := captureAt(t, e, "new", tc.update, onDay(90))
			m, _ := e.Memory(old.MemoryID)
			if got := m.SupersededBy == up.MemoryID; got != tc.superseded {
				t.Fatalf("superseded = %v, want %v; trail %+v", got, tc.superseded, up.Trail)
			}
			if tc.superseded && (len(up.Supersedes) != 1 || up.Supersedes[0].By != tc.by || up.Supersedes[0].ID != old.MemoryID) {
				t.Fatalf("result supersedes %+v, want #%d by %s", up.Supersedes, old.MemoryID, tc.by)
			}
			if !tc.superseded && len(up.Supersedes) != 0 {
				t.Fatalf("result supersedes %+v, want none", up.Supersedes)
			}
			var reasons []string
			for _, d := range up.Trail {
				if d.Layer == engine.LayerSupersede {
					reasons = append(reasons, d.Reason)
				}
			}
			all := strings.Join(reasons, "\n")
			for _, w := range tc.trail {
				if !strings.Contains(all, w) {
					t.Errorf("supersede trail lacks %q:\n%s", w, all)
				}
			}
			if srv.Chats() != 2 {
				t.Errorf("%d chats, want 2", srv.Chats())
			}
		})
	}

	t.Run("invalid updates twice: held, nothing superseded", func(t *testing.T) {
		update := "아이폰 15로 바꿨어, 카메라가 훨씬 좋아."
		srv := ollamatest.New(t, func(text string) string {
			if text == update {
				return "chat_capture_update_unknown.ndjson"
			}
			return "chat_capture_store.ndjson"
		})
		j := ollama.NewCaptureJudge(ollama.NewClient(ollama.ClientConfig{Host: srv.URL(), Timeout: 5 * time.Second}), ollama.Options{Model: ollamatest.Model})
		e := openCaptureEngine(t, j)
		old := captureAt(t, e, "old", "내 핸드폰은 갤럭시 S21이야.", onDay(0))
		r, err := capture.Capture(context.Background(), e, engine.Message{ID: "new", Session: "s-new", Role: "user", Text: update, At: onDay(90)})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := e.Memory(old.MemoryID)
		if r.Outcome != engine.OutcomeHeld || m.SupersededBy != 0 || len(r.Supersedes) != 0 {
			t.Fatalf("outcome %s, old superseded by #%d; want held and the old fact current", r.Outcome, m.SupersededBy)
		}
	})

	t.Run("no change marker: the judge is shown no candidates", func(t *testing.T) {
		srv := ollamatest.New(t, func(string) string { return "chat_capture_store.ndjson" })
		j := ollama.NewCaptureJudge(ollama.NewClient(ollama.ClientConfig{Host: srv.URL(), Timeout: 5 * time.Second}), ollama.Options{Model: ollamatest.Model})
		e := openCaptureEngine(t, j)
		captureAt(t, e, "old", "내 핸드폰은 갤럭시 S21이야.", onDay(0))
		r := captureAt(t, e, "new", "My phone has a blue case and a cracked screen protector.", onDay(90))
		for _, d := range r.Trail {
			if d.Layer == engine.LayerSupersede {
				t.Fatalf("a message without a change marker got a supersede decision: %+v", d)
			}
		}
	})
}
