package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

// Speakers as a field: in a transcript the line that answers what Dana
// painted is Dana's own ("Dana: …"), while Eli's lines name Dana only as
// the one Eli talks to. Eli's short question about the painting shares
// more with the query than Dana's long answer, so without the field it
// ranks first; with it, Dana's line does. A query that names both
// speakers, or a "Name:" opener that does not recur, changes nothing.
func TestSpeakerField(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	i := 0
	mk := func(session, key, text string) {
		i++
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, Session: session,
			CreatedAt: now.Add(-3*day + time.Duration(i)*time.Second)})
	}
	lines := []struct{ key, text string }{
		{"e1", "Eli: Hey Dana, how was the weekend?"},
		{"d1", "Dana: Busy! I finished a big canvas of the harbour at dawn, oils, took me three weekends of painting."},
		{"e2", "Eli: Dana, is that harbour painting yours?"},
		{"d2", "Dana: It is, I want to hang it in the hallway once it dries."},
		{"e3", "Eli: I went climbing with my cousin on Saturday."},
		{"d3", "Dana: Climbing sounds fun, I should try it."},
		{"k1", "수아: 민지야 주말에 뭐 했어?"},
		{"m1", "민지: 주말 내내 한강 야경을 유화로 그렸어, 세 번째 그림이야"},
		{"k2", "수아: 민지 그림 진짜 멋있다 그거 네가 그렸어?"},
		{"m2", "민지: 응 거실에 걸어 두려고"},
		{"k3", "수아: 나는 토요일에 사촌이랑 등산 갔어"},
		{"m3", "민지: 등산 좋다 나도 가 보고 싶어"},
	}
	for _, l := range lines {
		mk("s-"+l.key[:1], l.key, l.text)
	}
	for n := range 30 {
		mk("filler", fmt.Sprintf("f%d", n), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", n))
	}
	for _, c := range []struct{ query, want, other, speaker string }{
		{"What did Dana paint?", "d1", "e2", "Dana"},
		{"민지가 그린 그림은 뭐야?", "m1", "k2", "민지"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, K: 10, ReadOnly: true})
		rr := tr.Stage("rerank")
		var order []string
		for _, it := range rr.Items {
			if it.Dropped == "" {
				order = append(order, it.Key)
			}
		}
		w, o := slices.Index(order, c.want), slices.Index(order, c.other)
		if w < 0 || (o >= 0 && o < w) {
			t.Errorf("%q: rerank order %v, want %s (spoken by %s) before %s", c.query, order, c.want, c.speaker, c.other)
		}
		note := rr.Notes["speaker"]
		if !strings.Contains(note, c.speaker) || !strings.Contains(note, fmt.Sprintf("× %.3f", recall.SpeakerOtherShare)) {
			t.Errorf("%q: rerank note speaker = %q, want %s named at its share", c.query, note, c.speaker)
		}
		if it := rerankItem(t, tr, c.other); it.Scores["speaker_other"] != 1 {
			t.Errorf("%q: %s scores %v, want speaker_other 1", c.query, c.other, it.Scores)
		}
	}
	for _, q := range []string{"What did Dana and Eli talk about painting?", "what painting is in the hallway?"} {
		tr := enginetest.Recall(t, e, engine.Query{Text: q, At: now, K: 10, ReadOnly: true})
		if note, ok := tr.Stage("rerank").Notes["speaker"]; ok {
			t.Errorf("%q: names every speaker or none, but rerank note speaker = %q", q, note)
		}
	}
}
