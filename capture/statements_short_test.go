package capture

import (
	"testing"

	"memtrace/engine"
)

// TestStatesFact: a short statement with a topic and an anchored comment
// is a fact that passes the length floors; chatter, questions, requests,
// pronoun topics and comments with no number, name or place are not.
func TestStatesFact(t *testing.T) {
	cases := []struct {
		text string
		fact bool
	}{
		{"The spare key is under the blue mat.", true},
		{"Our standup is at 9:30.", true},
		{"The printer sits behind the reception desk.", true},
		{"Their cat is called Dubu.", true},
		{"주차장은 지하 2층에 있어.", true},
		{"빌드는 GitLab에서 돌려.", true},
		{"동생은 대구에서 자취해.", true},
		{"The weather is nice.", false},
		{"날씨는 좋네.", false},
		{"그건 별로야.", false},
		{"Where is the spare key?", false},
		{"주차장 어디에 있어?", false},
		{"이거 GitLab에서 돌려줘.", false},
		{"ok thanks", false},
		{"The end.", false},
	}
	for _, c := range cases {
		got := statesFact(engine.Message{Role: "user", Text: c.text}) != ""
		if got != c.fact {
			t.Errorf("statesFact(%q) = %v, want %v", c.text, got, c.fact)
		}
	}
	if statesFact(engine.Message{Role: "assistant", Text: "The spare key is under the blue mat."}) != "" {
		t.Error("an assistant's text is no user fact")
	}
}
