package capture_test

import (
	"fmt"
	"strings"
	"testing"

	"memtrace/engine"
)

// TestSupersessionSlot: the slot an update fills comes from the sentence's
// structure — "joined" a group is membership, not a new employer; "live
// with X" says who, not where; the partner of a relationship change is not
// the person it is about; a month is a date after a preposition and a
// person as the subject; a capital after "my" names a thing; a Korean given
// name (준형이는) opens a clause about that person. Cases of my own, EN and
// KO. want: the index of the old message superseded, -1 none; slot: a
// word the trail's supersede note must carry.
func TestSupersessionSlot(t *testing.T) {
	cases := []struct {
		name   string
		olds   []string
		update string
		want   int
		slot   string
	}{
		{"joined a club", []string{"I work at Kakao as a backend engineer on the maps team."},
			"I joined a badminton club near Jamsil last week.", -1, "membership"},
		{"joined the company's team", []string{"I work at Kakao as a backend engineer on the maps team."},
			"I joined the company futsal team, we play on Thursdays.", -1, "membership"},
		{"joined a company", []string{"I work at Kakao as a backend engineer."},
			"I joined Toss last month as a platform engineer.", 0, "employer"},
		{"KO club", []string{"나 네이버에서 일해, 검색팀이야."},
			"회사 축구 동호회에 들어갔어, 매주 토요일 경기해.", -1, "membership"},
		{"live with", []string{"I live in Suwon, near the Ajou campus."},
			"I live with my two cats now, they rule the flat.", -1, ""},
		{"live with, in a place", []string{"I live in Suwon, near the Ajou campus."},
			"These days I live with my cat in Incheon.", 0, "home"},
		{"old live alone is no home", []string{"I rent a flat in Mapo near the park.", "I live alone for the first time and I cook every night."},
			"We moved to Ilsan last month.", 0, "home"},
		{"KO live alone", []string{"나 분당 서현동에 살아, 역이랑 가까워.", "혼자 살아서 주말마다 마트 가서 장 봐."},
			"지난달에 잠실로 이사했어, 회사랑 가까워졌어.", 0, "home"},
		{"KO old live with is no home", []string{"나 수원 영통 아파트에 살아, 회사랑 가까워.", "나 고양이 두 마리랑 같이 살아, 이름은 콩이랑 팥이."},
			"지난 주말에 안양으로 이사했어, 짐이 아직 많아.", 0, "home"},
		{"old live with is no home", []string{"I rent a flat in Mapo near the park.", "I live with my grandmother and her old dog."},
			"We moved to Ilsan last month.", 0, "home"},
		{"KO partner and name", []string{"준형이는 판교 게임 회사에서 일해.", "남자친구 준형이랑 3년째 사귀는 중이야."},
			"준형이랑 결혼했어! 드디어 유부녀 ㅋㅋ", 1, "partner"},
		{"EN partner", []string{"My boyfriend Theo teaches piano in Mapo.", "Theo's brother is getting married in October at a hotel in Busan."},
			"Theo and I broke up last week.", 0, "partner"},
		{"KO name is someone else", []string{"나 판교에 있는 게임 회사에서 일해."},
			"준형이는 삼성으로 이직했어, 연봉 많이 올랐대.", -1, ""},
		{"June the person", []string{"I live in Seoul, near Mapo station."},
			"June moved to Busan for a new job.", -1, ""},
		{"June works (old)", []string{"I work at Kakao as a backend engineer.", "June works at Samsung in Suwon on the memory chip design team with twelve engineers."},
			"I joined Toss last month as a platform engineer.", 0, "employer"},
		{"June is a nurse (old)", []string{"My employer is Kakao, in the Pangyo office.", "June is a nurse and works at the Asan hospital in Songpa on the night shift every week."},
			"I joined Toss last month.", 0, "employer"},
		{"May the month", []string{"I live in Seoul, near Mapo station."},
			"In May we moved to Busan, closer to my parents.", 0, "home"},
		{"last June", []string{"I work at Kakao as a backend engineer."},
			"Last June I joined Coupang as a data engineer.", 0, "employer"},
		{"my Pixel is a thing", []string{"My phone is a Pixel 6 with a cracked screen.", "I pay 40,000 won a month for my phone plan."},
			"Dropped my Pixel in the sea so it's an iPhone 16 now.", 0, "phone"},
		{"relative retired", []string{"My mom works at KEPCO in Naju.", "I work at Samsung in Suwon."},
			"Mom retired from KEPCO last spring!", 0, ""},
		{"retired as a modifier", []string{"I work at Samsung in Suwon, on the display team."},
			"My retired uncle visits us on Sundays now, he brings fruit.", -1, ""},
		{"mixed cancel", []string{"Friday 3시에 hair salon 예약 있어, 커트 하고 염색까지.", "our salon is in Hapjeong near the station"},
			"금요일 미용실 예약 cancel했어, 다음 주로 미룸", 0, ""},
		{"a wish in the next sentence", []string{"주말마다 동네 서점에서 알바해, 토요일 일요일 둘 다."},
			"서점 알바 그만뒀어. 좀 쉬고 싶어서", 0, ""},
		{"a retraction over a retraction", []string{"We are flying to Sapporo in February for the snow festival.", "다낭 여행 취소했어 ㅠ 휴가가 안 나와서."},
			"So the Hokkaido trip in February is off, the flights got too pricey.", -1, ""},
		{"KO office relocated", []string{"우리 회사 사무실은 을지로에 있어.", "나 마포 합정동 살아."},
			"사무실 판교로 이전했어, 출근이 더 멀어졌네.", 0, ""},
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
					got = i
				}
			}
			if got != tc.want {
				t.Fatalf("superseded old %d, want %d; trail %+v", got, tc.want, up.Trail)
			}
			if tc.slot == "" {
				return
			}
			for _, d := range up.Trail {
				if d.Layer == engine.LayerSupersede && strings.Contains(d.Reason, "slot: ") && strings.Contains(d.Reason, tc.slot) {
					return
				}
			}
			t.Fatalf("no supersede note names the slot %q: %+v", tc.slot, up.Trail)
		})
	}
}
