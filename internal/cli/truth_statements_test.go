package cli

import (
	"fmt"
	"strings"
	"testing"
)

// Several independent statements in one message become one memory each —
// decided from the parts' content (each a complete statement of another
// subject), not from the types the judge gives them — through `memtrace
// ingest` and MCP memory_capture alike; a message whose parts say more of
// one subject stays one memory under the message's key. Wordings written
// for this test (not the examples), in English, Korean and
// code-switched text.
func TestStatementSplitBothDoors(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // a phrase of each memory the message becomes, in key order
	}{
		{"My uncle runs a bakery in Gunsan and I'm allergic to kiwi.", []string{"bakery", "kiwi"}},
		{"Our cat is called Dubu. My favourite author is Han Kang.", []string{"Dubu", "Han Kang"}},
		{"우리 형은 울산에서 일하고, 나는 키위 알레르기가 있어", []string{"울산", "키위"}},
		{"내 생일은 11월 9일이고 혈액형은 AB형이야", []string{"11월", "AB형"}},
		{"My manager is based in Lisbon. 그리고 나는 다음 주에 제주도 출장 가", []string{"Lisbon", "제주도"}},
		{"I live in Gimpo and my flat is on the 9th floor.", []string{"Gimpo"}},
		{"My daughter got a puppy, and she walks it every morning before school.", []string{"puppy"}},
	} {
		t.Run(c.text, func(t *testing.T) {
			msgs := []truthMsg{user(c.text)}
			check := func(g truthGot) string {
				if len(g.mems[0]) != len(c.want) {
					return fmt.Sprintf("%d memories, want %d: %s", len(g.mems[0]), len(c.want), g.describe(0))
				}
				base := g.mems[0][0].Key // the message id: t0 through ingest, msg:… through MCP
				if strings.Contains(base, "#") {
					return "the first memory's key " + base + " has a statement suffix"
				}
				for i, m := range g.mems[0] {
					key := base
					if i > 0 {
						key = fmt.Sprintf("%s#%d", base, i+1)
					}
					if m.Key != key || !strings.Contains(m.Content, c.want[i]) {
						return fmt.Sprintf("memory %d is %s %q, want key %s holding %q", i+1, m.Key, m.Content, key, c.want[i])
					}
				}
				return ""
			}
			g, why := truthViaIngest(t, msgs)
			if why == "" {
				why = check(g)
			}
			if why != "" {
				t.Errorf("ingest: %s", why)
			}
			if why := check(truthViaMCP(t, msgs)); why != "" {
				t.Errorf("memory_capture: %s", why)
			}
		})
	}
}
