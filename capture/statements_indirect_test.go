package capture

import "testing"

// Indirect requests and questions (statements_lines.go: politeRequest,
// askingLead, koWhQuestion) against statements that look like them.
func TestIndirectActs(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"I was wondering if you could draft a toast for my sister's wedding", actRequest},
		{"it would be really helpful if you could list the steps", actRequest},
		{"any tips for keeping a cast iron pan from rusting", actQuestion},
		{"I wonder whether I picked the right university", actStatement},
		{"no idea why but I sleep better with the window open", actStatement},
		{"이 에러 왜 나는 거야", actQuestion},
		{"이거 어디서 사야 돼", actQuestion},
		{"몇 년 전에 대전으로 이사 왔어", actStatement},
		{"언제나 아침엔 커피부터 마셔", actStatement},
		{"누가 뭐래도 나는 이 일이 좋아", actStatement},
	} {
		if got := actOf(c.s, c.s); got != c.want {
			t.Errorf("actOf(%q) = %s, want %s", c.s, got, c.want)
		}
	}
}

// A statement in the sentence that announces a paste stays a statement.
func TestIntroClause(t *testing.T) {
	acts := readActs("I keep a reading log, here's this month's:\ntitle,pages\nDune,412\nEmma,474")
	if len(acts) == 0 || acts[0].act != actStatement || acts[0].text != "I keep a reading log" {
		t.Fatalf("acts = %+v", acts)
	}
}
