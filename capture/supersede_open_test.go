package capture_test

import (
	"context"
	"fmt"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestOpenRetractions: the examples `memtrace help updates` gives of the
// open subject path — retraction phrases, loanwords across the scripts by
// sound, a compound's modifier, a "for" phrase, look-alike phrases — each
// with its older memories captured first (the first is the one it should
// end, or want -1 for none).
func TestOpenRetractions(t *testing.T) {
	cases := []struct {
		name   string
		olds   []string
		update string
		want   int
	}{
		{"off-x", []string{"I take 3mg of melatonin before bed."}, "I'm off melatonin now, sleeping fine without it.", 0},
		{"done-with", []string{"I have a membership at Boulder Barn, the climbing gym in Seongsu."}, "I'm done with Boulder Barn, too pricey.", 0},
		{"fell-through", []string{"I'm flying to Lisbon on May 12 for the PyCon Portugal conference."}, "The Lisbon conference trip fell through, the visa didn't come in time.", 0},
		{"loan-ko-en", []string{"I'm subscribed to Netflix Premium, 17,000 won a month."}, "넷플릭스 해지했어 ㅋㅋ 볼 게 없어", 0},
		{"loan-en-ko", []string{"아침마다 한강에서 러닝해."}, "Stopped running in the mornings, my knee hurts.", 0},
		{"loan-stem", []string{"I do Pilates every Tuesday near the office."}, "필라테스 그만뒀어, 허리가 나아져서.", 0},
		{"two-consonants", []string{"We go to the pub near the office every Friday."}, "펍 이제 안 가요.", -1}, // a limit help updates names
		{"decided-not-to", []string{"한 달에 두 번 등산 동호회 따라 북한산 가."}, "등산 동호회 안 가기로 했어. 회비가 너무 올라서.", 0},
		{"fell-through-ko", []string{"10월에 팀 워크숍 후쿠오카로 가기로 했어."}, "후쿠오카 워크숍 무산됐어, 예산 삭감.", 0},
		{"compound", []string{"캠핑 의자는 작년에 샀어."}, "캠핑 예약 취소했어, 비 온대.", -1},
		{"compound-en", []string{"My salsa shoes are from a shop in Itaewon."}, "The Thursday salsa lessons got cancelled for good.", -1},
		{"for-my-dad", []string{"I drink two cups of coffee every morning."}, "No more coffee for my dad, doctor's orders.", -1},
		{"off-to", []string{"I'm flying to Lisbon on May 12 for the PyCon Portugal conference."}, "I'm off to Lisbon tomorrow for the conference!", -1},
		{"off-work", []string{"I work at Naver on the search team."}, "I'm off work today, the office is closed.", -1},
		{"done-for-today", []string{"I work at Naver on the search team."}, "I'm done with work for today.", -1},
		{"over-budget", []string{"I'm leading Project Halyard, the billing migration at work."}, "Project Halyard is over budget again.", -1},
		{"fell-apart", []string{"I'm in a book club that meets monthly at Cafe Onion."}, "Our book club fell apart over the summer.", 0},
		{"deleted-for-good", []string{"I post my film photos on Instagram most weekends."}, "Deleted Instagram for good, too much doomscrolling.", 0},
		{"gone-ko", []string{"목요일마다 볼링 모임 나가."}, "매주 가던 볼링 모임 없어졌어.", 0},
		{"of-head", []string{"I'm reading the Rust book in the evenings."}, "I'm done with the first chapter of the Rust book.", -1},
		{"of-part", []string{"We're touring Europe with the band this summer, twelve cities."}, "Cancelled the rest of the European tour, the drummer broke his wrist.", 0},
		{"ly-name", []string{"I use Grammarly Premium for my emails."}, "I've stopped using Grammarly.", 0},
		{"routine-on-days", []string{"Hana takes ballet on Saturdays."}, "Hana's not doing ballet anymore.", 0},
		{"subordinate-head", []string{"The deploy runs every Friday from Jenkins.", "The staging DB port is 5432."}, "The deploy failed with ECONNREFUSED because the staging DB port changed to 5433.", 1},
		{"seoul-sul", []string{"I live in Seoul near Mapo with my wife."}, "술 끊었어, 건강검진 결과 보고.", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			var olds []int64
			for i, o := range tc.olds {
				olds = append(olds, captureAt(t, e, fmt.Sprintf("%s-old%d", tc.name, i), o, onDay(i)).MemoryID)
			}
			up, err := capture.Capture(context.Background(), e, engine.Message{ID: tc.name + "-new", Session: "s-new", Role: "user", Text: tc.update, At: onDay(60)})
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, s := range up.Supersedes {
				got = append(got, s.ID)
			}
			switch {
			case tc.want < 0 && len(got) > 0:
				t.Fatalf("%q superseded %v, want nothing; trail %+v", tc.update, got, up.Trail)
			case tc.want >= 0 && (len(got) != 1 || got[0] != olds[tc.want]):
				t.Fatalf("%q (%s) superseded %v, want #%d; trail %+v", tc.update, up.Outcome, got, olds[tc.want], up.Trail)
			}
		})
	}
}
