package capture_test

import (
	"context"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestSentenceItemsSplit: a sentence that opens with an additive
// coordinator ("Also, …", "그리고 …") adds an item of its own, so a message
// of a fact and such an item becomes one memory per statement; the first
// keeps the message id as its key, the second is ID#2. A sentence that
// elaborates the one before stays with it.
func TestSentenceItemsSplit(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"My shoe size is 270 in Korean sizes. Also, always reply to me in Korean from now on.", 2},
		{"나 땅콩 알레르기 있어. 그리고 다음 달 3일에 치과 예약 있어", 2},
		{"나 채식주의자야. 그리고 이번 주 금요일에 치과 예약 있어", 2},
		{"my shoe size is 270 and always reply to me in Korean from now on", 2},
		{"나 채식주의자이고 다음 주 금요일에 부산으로 출장 가", 2},
		{"I walk to work and I take the bus home when it rains.", 1},
		{"We adopted a second cat last weekend, a grey one. Oh and never use emoji in your replies to me.", 2},
		{"We moved to Busan last month. Still unpacking the kitchen boxes.", 1},
	} {
		e := openCaptureEngine(t, nil)
		r, err := capture.Capture(context.Background(), e, engine.Message{ID: "m1", Session: "s", Role: "user", Text: c.text, At: onDay(1)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != engine.OutcomeStored {
			t.Fatalf("%q: outcome %s (%s)", c.text, r.Outcome, r.Reason)
		}
		n := max(1, len(r.Statements))
		if n != c.want {
			t.Errorf("%q: %d statements, want %d; trail %+v", c.text, n, c.want, r.Trail)
			continue
		}
		if r.Key != "m1" {
			t.Errorf("%q: first statement key %q, want the message id m1", c.text, r.Key)
		}
		if c.want == 2 {
			if r.Statements[1].Key != "m1#2" {
				t.Errorf("%q: second key %q, want m1#2", c.text, r.Statements[1].Key)
			}
			if _, ok := e.MemoryByKey("m1#2"); !ok {
				t.Errorf("%q: no memory under m1#2", c.text)
			}
		}
	}
}
