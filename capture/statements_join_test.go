package capture_test

import (
	"context"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestStatementsJoinedBare: two clauses joined without a comma by a bare
// "and", a Korean -고 / -고 있고 or -는데, each with a subject of its own,
// are two statements; a coordinated subject, a repeated speaker, a verb
// whose subject is left out, a clause about no one (바람이) and an
// adnominal verb (먹는 거) are not. Wordings written for this test.
func TestStatementsJoinedBare(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"my aunt runs a flower shop in Gimpo and I coach youth soccer on Sundays", 2},
		{"my husband is a firefighter and our daughter studies law in Seoul", 2},
		{"my dog is called Kongi and Yerin works at the city library", 2},
		{"저는 간호사로 일하고 있고 아내는 초등학교 선생님이에요", 2},
		{"나 성수동에서 일하고 남동생은 광주에 살아", 2},
		{"회사는 여의도에 있는데 집은 김포야", 2},
		{"my brother and I share a flat in Daegu", 1},
		{"I went to the pharmacy and picked up my prescription", 1},
		{"We moved to Daegu last month and we rent a flat near the river", 1},
		{"어제 저녁부터 계속 비 오고 바람이 많이 불었어", 1},
		{"퇴근하고 먹는 거 좋아해", 1},
		{"엄마하고 나는 주말마다 등산 가", 1},
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
		if ms := memoriesOf(t, e, "m1"); len(ms) != c.want {
			t.Errorf("%q: %d memories, want %d; statements layer: %s", c.text, len(ms), c.want, statementsTrail(r))
		}
	}
}
