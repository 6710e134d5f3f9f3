package capture_test

import (
	"fmt"
	"testing"

	"memtrace/engine"
)

// TestSupersessionReadsTheSentence: the subject of an update comes from
// the marker's clause — its head noun and the marker's object — not from
// an incidental word or a capitalised opener; retractions (stopped X, gave
// up X, X is off, 끊었어, 이제 안 …) link to the older memory naming X with no
// lexicon subject; look-alikes link nothing. want: the index of the old
// message superseded, -1 none.
func TestSupersessionReadsTheSentence(t *testing.T) {
	cases := []struct {
		name   string
		olds   []string
		update string
		want   int
	}{
		{"colon opener", []string{"I live in Daejeon with two roommates, close to the station.", "My favourite bakery in town is Sungsimdang, the one with the bread."},
			"Big update: we moved to Gwangju in March, the boxes are everywhere.", 0},
		{"head noun, not the adjunct", []string{"We run Redis 6 as the session cache for the payments service.", "The CI build runner sits in rack 2 of the basement room."},
			"The build runner moved to rack 4 after the Redis upgrade.", 1},
		{"stopped X", []string{"I go swimming every Tuesday at the pool near the office.", "I track my workouts with a Garmin watch every single day."},
			"I stopped swimming after the shoulder injury, only walking for now.", 0},
		{"gave up X", []string{"I drink about four cans of cola every day, mostly at work."},
			"Gave up cola a month ago and honestly I feel a lot better.", 0},
		{"X is off", []string{"Booked the Fukuoka trip for June 3 to 7, flights and hotel are paid."},
			"The Fukuoka trip is off — work got in the way of everything.", 0},
		{"끊었어", []string{"나 담배를 하루에 반 갑 정도 피워, 줄여야 하는데 잘 안 돼."},
			"담배 끊었어, 벌써 두 달째인데 진짜 뿌듯해.", 0},
		{"이제 안", []string{"나 커피 엄청 좋아해서 하루에 세 잔은 꼭 마셔, 아침엔 필수야."},
			"커피는 이제 안 마셔, 잠을 너무 못 자서 끊기로 했어.", 0},
		{"KO incidental clause", []string{"우리 팀 슬랙 채널은 #payments야, 알림은 거기로 와.", "나는 부산 해운대 근처에 살아, 바다가 보이는 집이야."},
			"슬랙 채널을 #payments-core로 옮겼어. 부산 팀이랑 합쳐서 그렇게 됐어.", 0},
		{"someone else stopped", []string{"I go swimming every Tuesday at the pool near the office."},
			"My brother stopped swimming after his knee surgery last year.", -1},
		{"someone else's trip is off", []string{"올해 10월에 교토 여행 가기로 했어, 숙소도 다 잡아놨어."},
			"친구 교토 여행은 취소됐대. 우리는 그대로 가기로 했어.", -1},
		{"hypothetical retraction", []string{"Booked the Fukuoka trip for June 3 to 7, flights and hotel are paid."},
			"If the Fukuoka trip is off, we will go to Jeju in the summer instead.", -1},
		{"unrelated object", []string{"I go swimming every Tuesday at the pool near the office."},
			"I stopped using Notion for my notes, plain text files are enough.", -1},
		{"background consistent with now", []string{"I live in Seoul, in a small flat in Mapo."},
			"I lived in Daegu until I was twelve, then we moved to Seoul.", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			var olds []*engine.CaptureResult
			for i, o := range tc.olds {
				olds = append(olds, captureAt(t, e, fmt.Sprintf("old%d", i), o, onDay(i)))
			}
			up := captureAt(t, e, "new", tc.update, onDay(90))
			got := -1
			for i, o := range olds {
				if m, _ := e.Memory(o.MemoryID); m.SupersededBy == up.MemoryID {
					if got != -1 {
						t.Fatalf("more than one superseded: %+v", up.Supersedes)
					}
					got = i
				}
			}
			if got != tc.want {
				t.Fatalf("superseded old %d, want %d; trail %+v", got, tc.want, up.Trail)
			}
		})
	}
}

// TestRetractionOutlivesWhatItCancels: a retraction takes the kind and
// importance of what it retracts, so it is not forgotten before the plan.
func TestRetractionOutlivesWhatItCancels(t *testing.T) {
	e := openCaptureEngine(t, nil)
	plan := captureAt(t, e, "plan", "Booked the Osaka trip for May 2 to 6 with Peach Aviation, hotel near Namba.", onDay(0))
	off := captureAt(t, e, "off", "The Osaka trip is off — my sister's wedding got moved to that weekend.", onDay(40))
	p, _ := e.Memory(plan.MemoryID)
	o, _ := e.Memory(off.MemoryID)
	if p.SupersededBy != o.ID {
		t.Fatalf("the plan is not superseded by the retraction: %+v", off.Trail)
	}
	if o.Kind != p.Kind || o.Importance < p.Importance {
		t.Fatalf("retraction %s/%.2f, plan %s/%.2f: the retraction must take the plan's kind and at least its importance", o.Kind, o.Importance, p.Kind, p.Importance)
	}
}
