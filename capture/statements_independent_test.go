package capture_test

import (
	"context"
	"strings"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestStatementsByContent: whether a message becomes several memories is
// read from its parts' content — each a complete statement of another
// subject — not from the types the judge gives them. Wordings written for
// this test, in English, Korean and code-switched text, joined every way
// a message joins statements; the trail's statements layer says why a
// message of several parts stayed one memory.
func TestStatementsByContent(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
		why  string // for want 1: a phrase of the statements layer's reason
	}{
		// Independent statements of one type (two notes, two facts).
		{"My cousin works as a pharmacist in Ulsan and I'm lactose intolerant.", 2, ""},
		{"My passport expires in 2029; my shoe size is 265.", 2, ""},
		{"Our dog is called Mocha. My favourite band is Hyukoh.", 2, ""},
		{"My nephew plays the cello, I grew up in Jeonju.", 2, ""},
		{"Things about me:\n- I grew up in Jeonju\n- I'm left-handed\n- my wife teaches violin", 3, ""},
		{"1. My daughter started kindergarten this spring\n2. I switched to night shifts at the hospital", 2, ""},
		{"우리 언니는 제주도에 살고, 나는 고양이 털 알레르기가 있어", 2, ""},
		{"내 혈액형은 B형이야. 자동차는 아반떼 타", 2, ""},
		{"회사는 판교에 있고 또 주말마다 테니스 쳐", 2, ""},
		{"내 동생은 Toronto에서 일하고, I'm vegetarian since last year", 2, ""},
		{"My team writes everything in Go. 그리고 나는 다음 달에 이사 가", 2, ""},
		// A rule part beside a fact.
		{"I'm a night-shift nurse, and please keep your answers under five sentences", 2, ""},
		// One statement: the same subject, a pointer back, a reason, a
		// condition, a continued account, a pro-form, a fragment.
		{"I live in Cheongju and my apartment is on the 12th floor", 1, "same subject"},
		{"My brother bought a motorbike, and he rides it to work every day", 1, "pointing back"},
		{"We hiked Jirisan on Sunday. I twisted my ankle on the way down.", 1, "goes on"},
		{"I cycle to the office and I take the subway when it snows", 1, ""},
		{"나 물을 무서워해. 예전부터 쭉 그랬어", 1, "pro-form"},
		{"어제 저녁에 대학 동기 만나고, 같이 을지로에서 삼겹살 먹었어", 1, "account"},
		{"지난주 토요일에 가족이랑 부산 다녀왔어. 외할머니 여든 번째 생신이었거든", 1, "reason"},
		{"I started a new job at a bakery. mostly early shifts, lots of croissants", 1, "predicate"},
	} {
		e := openCaptureEngine(t, nil)
		r, err := capture.Capture(context.Background(), e, engine.Message{ID: "m1", Session: "s", Role: "user", Text: c.text, At: onDay(1)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != engine.OutcomeStored {
			t.Errorf("%q: outcome %s (%s)", c.text, r.Outcome, r.Reason)
			continue
		}
		ms := memoriesOf(t, e, "m1")
		if len(ms) != c.want || max(1, len(r.Statements)) != c.want {
			t.Errorf("%q: %d memories (%d statements), want %d; statements layer: %s", c.text, len(ms), len(r.Statements), c.want, statementsTrail(r))
			continue
		}
		if r.Key != "m1" {
			t.Errorf("%q: first key %q, want the message id", c.text, r.Key)
		}
		for i, s := range r.Statements[min(1, len(r.Statements)):] {
			if want := "m1#" + string(rune('2'+i)); s.Key != want {
				t.Errorf("%q: statement %d key %q, want %q", c.text, i+2, s.Key, want)
			}
		}
		if c.want == 1 && c.why != "" && !strings.Contains(statementsTrail(r), c.why) {
			t.Errorf("%q: the trail does not say why it stayed one memory (%q): %s", c.text, c.why, statementsTrail(r))
		}
	}
}

// TestStatementPartsDecidedAlone: a question or a request part of a
// message is not stored as a statement, and the statement beside it is.
func TestStatementPartsDecidedAlone(t *testing.T) {
	for _, text := range []string{
		"My sister lives in Gimhae. Can you recommend a noodle place for her birthday dinner?",
		"나 다음 주에 이사해. 이삿짐 체크리스트 좀 만들어줘",
	} {
		e := openCaptureEngine(t, nil)
		r, err := capture.Capture(context.Background(), e, engine.Message{ID: "m1", Session: "s", Role: "user", Text: text, At: onDay(1)})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range memoriesOf(t, e, "m1") {
			if strings.Contains(m.Content, "?") || strings.Contains(m.Content, "만들어줘") {
				if len(r.Statements) > 1 {
					t.Errorf("%q: a question or request became a statement: %q", text, m.Content)
				}
			}
		}
		if len(r.Statements) > 1 {
			t.Errorf("%q: %d statements, want the statement alone: %s", text, len(r.Statements), statementsTrail(r))
		}
	}
}

func statementsTrail(r *engine.CaptureResult) string {
	var b []string
	for _, d := range r.Trail {
		if d.Layer == capture.LayerStatements {
			b = append(b, d.Verdict+": "+d.Reason)
		}
	}
	return strings.Join(b, " | ")
}
