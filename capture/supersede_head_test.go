package capture_test

import (
	"context"
	"fmt"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// TestSupersessionReadsStructure (issue 29): updates, retractions and
// look-alikes written for the mechanisms of supersede_head.go and the
// marker table — head nouns of a value change, the earliest strong marker,
// "New X", relatives across the scripts, honorific and colloquial Korean
// verbs, guards up to the marker's clause, short old facts that pass the
// length floors — each through Capture: want is the index of the older
// message the update supersedes, -1 none.
func TestSupersessionReadsStructure(t *testing.T) {
	cases := []supersedeCase{
		{[]string{"저 지금 수원 영통에 살아요", "제 동생은 망원동 살아요"}, "드디어 이사 끝났어요 ㅎㅎ 이제 합정동 주민임", 0},
		{[]string{"I live in Bundang.", "My company also has a branch in Daegu."}, "Big news: moved to Daegu last week!", 0},
		{[]string{"I work as a pharmacist at a hospital in Suwon.", "My wife is a pharmacist too."}, "New job! I'm now at a startup doing drug-safety data.", 0},
		{[]string{"I drive a grey 2018 Sonata.", "The parking spot at my building is B2-14."}, "Got a new parking spot, B3-02.", 1},
		{[]string{"I drive a grey 2018 Sonata.", "My brother has a Sonata too."}, "Sold the Sonata, I bike everywhere now.", 0},
		{[]string{"My boyfriend Minho is a firefighter.", "Minho's sister lives in Gwangju."}, "Minho and I got married in October!", 0},
		{[]string{"남자친구 준서는 요리사예요", "준서 동생은 대학생이에요"}, "준서랑 헤어졌어요", 0},
		{[]string{"My team lead is Grace Oh.", "Grace's husband works at Samsung."}, "Grace moved to another team, my new lead is Tom Reyes.", 0},
		{[]string{"제 팀장님은 박선미 팀장님이에요", "박선미 팀장님 딸은 고등학생"}, "팀장님 바뀌었어요. 이제 김도윤 팀장님", 0},
		{[]string{"I play tennis every Saturday morning.", "My friend coaches tennis."}, "Stopped tennis, my elbow is wrecked.", 0},
		{[]string{"I drink a beer most nights.", "My dad brews his own beer."}, "Gave up beer, two months now.", 0},
		{[]string{"We're flying to Osaka on August 10.", "My cousin lives in Osaka."}, "The Osaka trip is off, work got crazy.", 0},
		{[]string{"하루에 커피 세 잔 마셔요", "회사 카페 커피는 2,500원"}, "커피 끊었어요", 0},
		{[]string{"주말마다 골프 쳐요", "아빠는 골프 좋아하세요"}, "골프는 이제 안 쳐요", 0},
		{[]string{"The book club dinner is on Friday.", "I'm on a low-carb diet."}, "Change of plans: the book club dinner moved to Sunday.", 0},
		{[]string{"제 월세는 65만원이에요", "관리비는 8만원"}, "월세 70만원으로 올랐어요 ㅠ", 0},
		{[]string{"Mom lives in Jeonju.", "I live in Seoul."}, "My mom moved to Seoul last week!", 0},
		{[]string{"My brother works at Hyundai.", "I work at Kia."}, "My brother quit Hyundai and joined Naver.", 0},
		{[]string{"형은 현대차 다녀요", "저는 기아 다녀요"}, "형 이번에 네이버로 이직했어요", 0},
		{[]string{"I live in Mapo."}, "우리 강아지 이사벨 너무 귀여워요, 이사 가고 싶다", -1},
		{[]string{"I live in Jamsil."}, "Staying in Jamsil for now. Samsung announced a new phone today.", -1},
		{[]string{"I play badminton on Wednesdays."}, "I picked up bouldering too.", -1},
		{[]string{"저 강남 살아요"}, "만약 판교로 이사하면 출퇴근은 편하겠다", -1},
		{[]string{"I live in Incheon."}, "My neighbor moved to Jeju.", -1},
		{[]string{"I work at Coupang."}, "Did you quit Coupang?", -1},
		{[]string{"매일 담배 반 갑 펴요"}, "담배 끊을까 말까 고민 중", -1},
		{[]string{"I'm a teacher at Hanbit Middle School."}, "I used to be a nurse before I became a teacher.", -1},
		{[]string{"I don't eat sugar."}, "Had a slice of cake for my birthday, an exception, still no sugar otherwise.", -1},
		{[]string{"저 이번 주말에 부산 가요"}, "부산 여행 취소했어요", 0},
		{[]string{"I use an iPhone 12 mini."}, "Switched to a Pixel 9.", 0},
		{[]string{"My number is 010-1234-5678."}, "New number: 010-9999-1111.", 0},
		{[]string{"요가 주 2회 다녀요"}, "요가 그만뒀어요", 0},
		{[]string{"I study Spanish on Duolingo every day."}, "Not doing Spanish anymore, lost the streak.", 0},
		{[]string{"I go to the climbing gym every Tuesday.", "I work at Coupang."}, "I stopped climbing, my shoulder hurts.", 0},
		{[]string{"담배 하루 반 갑 펴요"}, "담배 끊었어요!", 0},
		{[]string{"My dad works at Hyundai."}, "아빠 이번에 퇴직하셨어요", 0},
		{[]string{"저는 넷플릭스 구독하고 있어요"}, "넷플릭스 해지했어요", 0},
		{[]string{"I'm in a book club that meets monthly."}, "I left the book club, too much reading.", 0},
		{[]string{"저 아이폰 써요"}, "갤럭시로 갈아탔어요", 0},
		{[]string{"The team offsite is on June 3."}, "The offsite got postponed to July.", 0},
		{[]string{"My son goes to Haneul Elementary."}, "아들 전학했어요, 이제 바다초 다녀요", 0},
		{[]string{"우리 엄마는 부산 살아요"}, "엄마 서울로 이사 오셨어요", 0},
		{[]string{"I take the subway to work."}, "My wife takes the bus now.", -1},
		{[]string{"My brother works at LG."}, "I quit LG.", -1},
	}
	runSupersedeCases(t, cases)
}

// supersedeCase is one update case: the older messages, the new one and
// the index of the older one it must supersede (-1: none).
type supersedeCase struct {
	old  []string
	new  string
	want int
}

// runSupersedeCases captures each case's older messages and then its new
// one into a fresh engine, and checks which older memory the new one
// superseded.
func runSupersedeCases(t *testing.T, cases []supersedeCase) {
	t.Helper()
	for ci, c := range cases {
		t.Run(fmt.Sprint(ci), func(t *testing.T) {
			e := openCaptureEngine(t, nil)
			var ids []int64
			for i, o := range c.old {
				r, err := capture.Capture(context.Background(), e, engine.Message{ID: fmt.Sprintf("o%d", i), Session: "s", Role: "user", Text: o, At: onDay(i)})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, r.MemoryID)
			}
			up, err := capture.Capture(context.Background(), e, engine.Message{ID: "n", Session: "s2", Role: "user", Text: c.new, At: onDay(50)})
			if err != nil {
				t.Fatal(err)
			}
			got := -1
			for _, s := range up.Supersedes {
				for i, id := range ids {
					if id != 0 && id == s.ID {
						got = i
					}
				}
			}
			if got != c.want {
				t.Errorf("%q over %q: superseded %d, want %d; trail %+v", c.new, c.old, got, c.want, up.Trail)
			}
		})
	}
}
