package cli

import (
	"context"
	"time"

	"memtrace/engine"
	"memtrace/recall"
)

// demoRecall is one recall an assistant made of the demo's memory: the
// query it asked before answering, at its time.
type demoRecall struct {
	At      string // RFC 3339
	Query   string
	Project string
}

// demoRecalls are the recalls an agent would have committed over the demo's
// six months (bilingual, as the conversation is): the user's lactose
// intolerance and peanut allergy (and the dentist appointment to remind of) before suggesting food, the memtrace v1.0
// and July deadlines before planning, the coffee preference before a café,
// and the 충주 사과 association once, in April. Each runs at its time, after
// the messages it needs were said. None recalls the May and July 충주
// episodes (m0308, m0441): the inspector's demo (docs/inspector.md) shows
// them fading, so they stay unused.
var demoRecalls = []demoRecall{
	{"2026-01-12T12:00:00Z", "점심 메뉴 추천해줘. 우유 들어간 건 빼고", ""},
	{"2026-01-20T09:30:00Z", "memtrace v1.0 deadline: plan the next two weeks", "memtrace"},
	{"2026-02-08T18:00:00Z", "dinner recipe ideas for tonight — anything I can't eat?", ""},
	{"2026-02-13T08:00:00Z", "appointments next week to remind the user of: dentist?", ""},
	{"2026-02-25T09:00:00Z", "v1.0 마감까지 남은 일정 계획 세워줘", "memtrace"},
	{"2026-03-14T10:00:00Z", "카페에서 뭐 마실까? 내 커피 취향 기억나?", ""},
	{"2026-04-01T09:00:00Z", "what's left before the memtrace v1.0 deadline?", "memtrace"},
	{"2026-03-21T19:00:00Z", "is satay sauce safe with my peanut allergy?", ""},
	{"2026-04-10T19:00:00Z", "충주 사과", ""},
	{"2026-04-26T12:30:00Z", "restaurant for lunch with friends; remember my allergies", ""},
	{"2026-06-05T18:30:00Z", "우유 없는 디저트 레시피 알려줘", ""},
	{"2026-06-20T09:00:00Z", "memtrace 7월 마감 계획: MCP 서버와 golden stress", "memtrace"},
	{"2026-07-08T08:30:00Z", "iced americano or matcha without milk this morning?", ""},
	{"2026-07-15T09:00:00Z", "what is the memtrace deadline this month?", "memtrace"},
}

// replayDemoUse commits the demo's recalls through the real recall path,
// so access counts, association boosts and decay on the demo are those of
// a memory in use. It returns how many recalls it committed and how many
// memories they returned in all.
func replayDemoUse(ctx context.Context, eng *engine.Engine) (recalls, recalled int, err error) {
	for _, r := range demoRecalls {
		at, err := time.Parse(time.RFC3339, r.At)
		if err != nil {
			return recalls, recalled, err
		}
		tr, err := recall.Recall(ctx, eng, engine.Query{Text: r.Query, At: at, Project: r.Project, Session: "demo-agent", K: 8, Budget: 2000})
		if err != nil {
			return recalls, recalled, err
		}
		recalls++
		recalled += len(tr.Survivors)
	}
	return recalls, recalled, nil
}
