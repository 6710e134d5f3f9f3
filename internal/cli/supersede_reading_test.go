package cli

import (
	"testing"
	"time"

	"memtrace/engine"
)

// readingCase builds an update case of its own wording: the before
// messages a day apart, the after message a month later, expecting the
// before message want (by index; -1: nothing).
func readingCase(id string, before []string, after string, want int) updateCase {
	c := updateCase{ID: id}
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for i, text := range before {
		c.Before = append(c.Before, engine.Message{ID: id + "-b" + string(rune('0'+i)), Session: id + "-s1", Role: "user",
			Text: text, At: at.AddDate(0, 0, i)})
	}
	c.After = engine.Message{ID: id + "-a", Session: id + "-s2", Role: "user", Text: after, At: at.AddDate(0, 1, 0)}
	if want >= 0 {
		c.Expect.Supersedes = &c.Before[want].ID
	}
	return c
}

// TestSupersessionReadsOldMemories: the rule reads the older memory as it
// reads the new one, through `ingest` and through `memory_capture`, in
// both languages — its subject from its main clauses (a reason or time
// adjunct names no subject), only the speaker's clauses for the speaker's
// change, and a change whose new value the older memory already names (in
// either script) confirms it instead of replacing it; and a short
// statement whose anchor is a Latin name with a Korean particle is stored
// to be replaced.
func TestSupersessionReadsOldMemories(t *testing.T) {
	cases := []updateCase{
		readingCase("adjunct-en", []string{
			"Our apartment is in Daejeon, close to the river.",
			"I dropped the pottery class because the rent on my apartment went up.",
		}, "We moved to Gwangju last weekend, the boxes are everywhere.", 0),
		readingCase("adjunct-ko", []string{
			"나 수원에서 자취해, 역 근처 원룸이야.",
			"수영은 이제 안 가. 이사 준비 때문에 주말마다 바빠서 그래.",
		}, "Moved into the Mangwon place on Sunday, the cat hid all night.", 0),
		readingCase("someone-else-en", []string{
			"I go bouldering every Tuesday after work.",
			"he's really into bouldering, trains four times a week.",
		}, "I stopped bouldering, my shoulder needs a break.", 0),
		readingCase("someone-else-name", []string{
			"Minho is a nurse, works nights at a hospital in Ilsan.",
		}, "joined Coupang as a data analyst last Monday.", -1),
		readingCase("someone-else-ko", []string{
			"걔는 요즘 테니스에 완전 빠졌어, 레슨도 받아.",
		}, "테니스 끊었어, 손목이 계속 아파서.", -1),
		readingCase("value-by-sound", []string{
			"수원에서 자취한 지 2년 됐어, 역 앞 원룸이야.",
			"found a place in Haeundae, moving in on the 20th.",
		}, "해운대로 이사했어! 바다가 보여.", 0),
		readingCase("value-names-en", []string{
			"I rent a studio in Suwon near the station.",
			"finally found a place in 해운대, the lease starts next month.",
		}, "living in Haeundae now, ten minutes from the beach.", 0),
		readingCase("ko-retraction-tail", []string{
			"Minji's birthday is May 9, she wants a film camera.",
			"제주 여행 예약했어, 6월 첫째 주에 3박.",
		}, "제주 여행 취소했어 ㅠ Minji's boss won't give her the days off", 1),
		// A short statement of a tool choice, its tool a Latin name with a
		// Korean particle, is a fact a later change replaces.
		readingCase("short-tool-choice-ko", []string{
			"우리 팀 DB는 Postgres 15야",
			"이슈 관리는 Jira로 해",
		}, "이슈 트래커를 Jira에서 Linear로 옮겼어. DB는 그대로", 1),
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if why := judgeUpdate(c, viaIngest(t, c)); why != "" {
				t.Errorf("ingest: %s", why)
			}
			if why := judgeUpdate(c, viaMCP(t, c)); why != "" {
				t.Errorf("memory_capture: %s", why)
			}
		})
	}
}
