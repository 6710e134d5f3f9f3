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
		// An intransitive Korean move names only its destination: the
		// bare words before (으)로 are the new place, not a thing moved.
		{"KO move, destination only", []string{"회사는 여의도에 있어, IFC 바로 옆 건물이야.", "나 서울 은평구에 살아, 불광역 근처 오피스텔이야."},
			"지난 주말에 경기도 파주로 이사했어. 짐 정리가 한참 남았어.", 1},
		{"KO move finished", []string{"우리는 분당 정자동에서 전세로 지내고 있어."},
			"드디어 이사 끝! 하남 미사 쪽으로 왔어.", 0},
		{"EN rented place", []string{"We're renting a two-bedroom place in Itaewon for the time being."},
			"Moved to Pangyo last month, much closer to the office.", 0},
		{"KO quit over 에서 일해", []string{"나 라인플러스 광고팀에서 일해, 벌써 4년 차야."},
			"회사 그만뒀어. 당분간은 집에서 쉬는 중이야.", 0},
		{"EN engaged then married", []string{"Minji and I are engaged, the wedding is set for October."},
			"We got married last Saturday in a tiny ceremony by the sea.", 0},
		{"KO wedding", []string{"우리 내년 봄에 결혼식 올리기로 했어, 장소는 아직 고민 중."},
			"지난 토요일에 결혼했어, 가족끼리만 작게 했어.", 0},
		{"someone else married", []string{"Minji and I are engaged, the wedding is set for October."},
			"My sister got married in May, the whole family flew to Jeju.", -1},
		// X 말고 / instead of X: the older memory naming X, in either
		// language (the concept table's partner in the other script).
		{"KO X 말고 over an EN fact", []string{"I take the bus to school every morning, line 740 from the corner."},
			"요즘은 버스 말고 택시 타고 다녀, 아침에 너무 피곤해서.", 0},
		{"EN instead of X", []string{"I drink three cups of coffee every day at work, black.", "I keep a paper notebook for my to-do lists."},
			"I drink barley tea instead of coffee now, the caffeine was too much.", 0},
		// A marker that negates X over an old memory that already negates
		// X agrees with it: nothing is replaced.
		{"EN agreement", []string{"Never push straight to main, open a pull request first."},
			"Open a pull request instead of pushing to main, every time.", -1},
		{"KO agreement", []string{"라이브러리에서는 절대 print 쓰지 마, 로그가 엉망이 돼."},
			"print 말고 logger로 찍어, 레벨도 꼭 붙이고.", -1},
		// A third-person head is someone else's change; an adverb is no topic.
		{"someone else quit (pronoun)", []string{"수요일마다 클라이밍 다녀, 성수 쪽 짐이야."},
			"My cousin came over last night. He quit his office job to open a café.", -1},
		{"adverb head", []string{"I'm scared of deep water, I only swim where I can stand."},
			"Grew up in Jeonju, only moved to Daejeon for grad school.", -1},
		// English words after a Korean marker are another clause.
		{"mixed clause after a Korean marker", []string{"Our dog Dubu weighs 9 kg now, the vet says that is fine."},
			"점심은 김밥 말고 샐러드로 먹었어 and it came with a Dubu sticker on the lid.", -1},
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
