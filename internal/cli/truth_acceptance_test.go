package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/mcpserver"
	"memtrace/store"
)

// The acceptance examples of issue 29 for knowledge updates, retractions
// and capture, each through `memtrace ingest` (a real SQLite file) and
// through MCP memory_capture (an in-process client session), in English
// and Korean: the issue's own strings and rewordings of them.

// truthMsg is one message of an acceptance case.
type truthMsg struct{ role, text string }

func user(text string) truthMsg { return truthMsg{"user", text} }

// truthCase sends msgs in order and checks what became of them.
type truthCase struct {
	name  string
	msgs  []truthMsg
	check func(got truthGot) string // "" when right, else why not
}

// truthGot is what the messages became: by message index, its memories
// (the first under its key, then KEY#2 …), and which message's memory
// superseded each.
type truthGot struct {
	mems [][]*engine.Memory
	by   map[int64]int // memory id → index of the message that holds it
}

// supersededBy is the index of the message whose memory superseded the
// first memory of message i, or -1.
func (g truthGot) supersededBy(i int) int {
	if len(g.mems[i]) == 0 || g.mems[i][0].SupersededBy == 0 {
		return -1
	}
	if j, ok := g.by[g.mems[i][0].SupersededBy]; ok {
		return j
	}
	return -2
}

func (g truthGot) describe(i int) string {
	var b []string
	for _, m := range g.mems[i] {
		b = append(b, fmt.Sprintf("%s %s/%s %.2f %q", m.Key, m.Kind, m.Type, m.Importance, m.Content))
	}
	if len(b) == 0 {
		return "not stored"
	}
	return strings.Join(b, "; ")
}

// wantSupersedes: message `newer` supersedes message `older`; a
// retraction also takes at least the older one's importance and its kind.
func wantSupersedes(older, newer int, retraction bool) func(truthGot) string {
	return func(g truthGot) string {
		if len(g.mems[newer]) == 0 {
			return fmt.Sprintf("message %d not stored", newer)
		}
		if j := g.supersededBy(older); j != newer {
			return fmt.Sprintf("message %d (%s) superseded by message %d, want %d (%s)", older, g.describe(older), j, newer, g.describe(newer))
		}
		if retraction {
			o, n := g.mems[older][0], g.mems[newer][0]
			if n.Importance < o.Importance || n.Kind != o.Kind {
				return fmt.Sprintf("retraction %s must take the kind and importance of %s", g.describe(newer), g.describe(older))
			}
		}
		return ""
	}
}

// wantUntouched: message i is stored and superseded by nothing.
func wantUntouched(i int) func(truthGot) string {
	return func(g truthGot) string {
		if len(g.mems[i]) == 0 {
			return fmt.Sprintf("message %d not stored", i)
		}
		if j := g.supersededBy(i); j != -1 {
			return fmt.Sprintf("message %d (%s) superseded by message %d; it names the subject only incidentally", i, g.describe(i), j)
		}
		return ""
	}
}

// wantStatements: message i became memories of these types, in order,
// and the first kept the message's key exactly.
func wantStatements(i int, types ...string) func(truthGot) string {
	return func(g truthGot) string {
		var got []string
		for _, m := range g.mems[i] {
			got = append(got, m.Type)
		}
		if !slices.Equal(got, types) {
			return fmt.Sprintf("message %d became %v, want %v: %s", i, got, types, g.describe(i))
		}
		if len(g.mems[i]) > 0 && strings.Contains(g.mems[i][0].Key, "#") {
			return fmt.Sprintf("first memory's key %s has a suffix", g.mems[i][0].Key)
		}
		return ""
	}
}

// wantNotStored / wantKind: capture decisions.
func wantNotStored(i int) func(truthGot) string {
	return func(g truthGot) string {
		if len(g.mems[i]) != 0 {
			return fmt.Sprintf("message %d stored: %s", i, g.describe(i))
		}
		return ""
	}
}

func wantKind(i int, kind engine.Kind, notTypes ...string) func(truthGot) string {
	return func(g truthGot) string {
		if len(g.mems[i]) != 1 {
			return fmt.Sprintf("message %d: %s, want one memory", i, g.describe(i))
		}
		m := g.mems[i][0]
		if m.Kind != kind || slices.Contains(notTypes, m.Type) {
			return fmt.Sprintf("message %d: %s, want kind %s and no type of %v", i, g.describe(i), kind, notTypes)
		}
		return ""
	}
}

func truthCases() []truthCase {
	return []truthCase{
		// Supersession that reads the sentence.
		{"en move after a colon opener", []truthMsg{user("I live in Daejeon with two roommates."), user("Huge news: we moved to Gwangju in March.")}, wantSupersedes(0, 1, false)},
		{"en move, reworded", []truthMsg{user("We live in a small flat in Mapo, Seoul."), user("Big update: we finally moved to Suwon last weekend!")}, wantSupersedes(0, 1, false)},
		{"incidental word is no subject", []truthMsg{user("Our main database is Redis 6 on the old cluster."), user("The build runner moved to rack 4 after the Redis upgrade.")}, wantUntouched(0)},
		// Retractions: short, open subject, kind and importance taken over.
		{"en stopped X", []truthMsg{user("I run 5 km every morning before work."), user("I stopped running")}, wantSupersedes(0, 1, true)},
		{"en gave up X", []truthMsg{user("I drink three cups of coffee every day."), user("I gave up coffee")}, wantSupersedes(0, 1, true)},
		{"en X is off", []truthMsg{user("Planning a trip to Osaka in May with Jisoo, flights booked for the 3rd."), user("the Osaka trip is off")}, wantSupersedes(0, 1, true)},
		{"en X cancelled, reworded", []truthMsg{user("We have a weekend trip to Gangneung planned for next month."), user("Gangneung trip cancelled")}, wantSupersedes(0, 1, true)},
		{"ko 이제 안", []truthMsg{user("나 고기 엄청 좋아해. 삼겹살 주 2회는 먹음"), user("고기 이제 안 먹어")}, wantSupersedes(0, 1, true)},
		{"ko 이제 안, reworded", []truthMsg{user("토요일마다 수영 다녀"), user("수영 이제 안 다녀")}, wantSupersedes(0, 1, true)},
		{"ko 끊었어", []truthMsg{user("나 하루에 담배 반 갑 피워"), user("담배 끊었어")}, wantSupersedes(0, 1, true)},
		{"mixed 접었어", []truthMsg{user("I'm learning Japanese on Duolingo, 200-day streak"), user("Duolingo 접었어")}, wantSupersedes(0, 1, true)},
		{"a question retracts nothing", []truthMsg{user("I run 5 km every morning before work."), user("should I stop running?")}, wantUntouched(0)},
		// Capture: statements, not the talk around them.
		{"en two statements", []truthMsg{user("my birthday is May 3, and always write commit messages in English")}, wantStatements(0, "date", "rule")},
		{"ko two statements", []truthMsg{user("내 생일은 5월 3일이고, 커밋 메시지는 항상 영어로 써줘")}, wantStatements(0, "date", "rule")},
		{"en two statements, reworded", []truthMsg{user("I'm allergic to shellfish, and never suggest seafood places to me")}, wantStatements(0, "health", "correction")},
		{"one statement keeps its key", []truthMsg{user("I tried the new ramen place near the office, and it was great")}, wantStatements(0, "note")},
		{"a question is not stored", []truthMsg{user("how long should I boil an egg for a runny yolk?")}, wantNotStored(0)},
		{"ko a request is not stored", []truthMsg{user("이 에러 로그 좀 요약해줘")}, wantNotStored(0)},
		{"price is no achievement", []truthMsg{user("Museum entry was 3,000 won, cheaper than I expected.")}, wantKind(0, engine.KindEpisode, "achievement")},
		{"a fear is a fact", []truthMsg{user("I have claustrophobia, so elevators packed with people are hard for me.")}, wantKind(0, engine.KindFact)},
		{"ko a condition is a fact", []truthMsg{user("나 무릎이 안 좋아서 계단 오래 못 올라가")}, wantKind(0, engine.KindFact)},
		{"assistant promise is no rule", []truthMsg{{"assistant", "Understood. From now on I will only use pnpm in this repo."}}, wantNoRule(0)},
		// Rewordings written for this test (not the issue's strings).
		{"ko move, destination only", []truthMsg{user("나 대구 수성구에 살아, 범어역 근처야."), user("지난달에 경기도 용인으로 이사했어.")}, wantSupersedes(0, 1, false)},
		{"ko move after a colon opener", []truthMsg{user("나 부산 서면 근처에 살아, 지하철역 바로 앞이야."), user("빅뉴스: 우리 드디어 세종으로 이사했어!")}, wantSupersedes(0, 1, false)},
		{"ko incidental word is no subject", []truthMsg{user("우리 서비스 캐시는 Redis 6이야, 클러스터는 3대."), user("빌드 서버를 3번 랙으로 옮겼어, Redis 업그레이드 끝나고.")}, wantUntouched(0)},
		{"en engaged, then married", []truthMsg{user("Jiwoo and I are engaged, the wedding is planned for the autumn."), user("We got married in Busan last weekend, just family.")}, wantSupersedes(0, 1, false)},
		{"mixed X 말고 over an English fact", []truthMsg{user("I drive to the office every day, about forty minutes each way."), user("요즘은 운전 말고 지하철 타고 출근해.")}, wantSupersedes(0, 1, false)},
		{"en not … anymore", []truthMsg{user("I play futsal with my old classmates every Thursday night."), user("I don't play futsal anymore, my ankle never healed.")}, wantSupersedes(0, 1, true)},
		{"ko 취소됐어", []truthMsg{user("다음 달 제주 캠핑 예약해놨어, 3박 4일이야."), user("제주 캠핑 취소됐어, 태풍 온대.")}, wantSupersedes(0, 1, true)},
		{"a rule restated is no update", []truthMsg{user("Never deploy on Fridays, the on-call team hates it."), user("Deploy on Mondays instead of Fridays from now on.")}, wantUntouched(0)},
		{"en greeting is not stored", []truthMsg{user("hey there, good morning!")}, wantNotStored(0)},
		{"ko greeting is not stored", []truthMsg{user("좋은 아침이에요~ 오늘도 화이팅!")}, wantNotStored(0)},
		{"en acknowledgement is not stored", []truthMsg{user("ok got it, thanks")}, wantNotStored(0)},
		{"ko acknowledgement is not stored", []truthMsg{user("넵 알겠습니다 감사해요")}, wantNotStored(0)},
		{"ko a fear is a fact", []truthMsg{user("저 고소공포증이 있어서 전망대 같은 데는 못 올라가요.")}, wantKind(0, engine.KindFact)},
		{"ko an allergy is a fact", []truthMsg{user("저 땅콩 알레르기 있어요, 조금만 먹어도 두드러기 나요.")}, wantKind(0, engine.KindFact)},
		{"ko assistant promise is no rule", []truthMsg{{"assistant", "알겠습니다. 앞으로 이 저장소에서는 항상 yarn만 쓸게요."}}, wantNoRule(0)},
		{"a long paste is bounded", []truthMsg{user(accessLogPaste(150))}, wantBounded(0)},
	}
}

// wantNoRule: message i became no rule or correction.
func wantNoRule(i int) func(truthGot) string {
	return func(g truthGot) string {
		for _, m := range g.mems[i] {
			if m.Type == "rule" || m.Type == "correction" {
				return "assistant text became " + g.describe(i)
			}
		}
		return ""
	}
}

// wantBounded: message i is stored, and no memory of it is longer than
// capture.MaxMemoryRunes.
func wantBounded(i int) func(truthGot) string {
	return func(g truthGot) string {
		if len(g.mems[i]) == 0 {
			return fmt.Sprintf("message %d not stored: its statement is lost with the paste", i)
		}
		for _, m := range g.mems[i] {
			if n := utf8.RuneCountInString(m.Content); n > capture.MaxMemoryRunes {
				return fmt.Sprintf("message %d became a memory of %d characters (bound %d)", i, n, capture.MaxMemoryRunes)
			}
		}
		return ""
	}
}

// accessLogPaste is a note of the user's over n lines of an access log in
// the Combined Log Format (the Apache httpd documentation's
// "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-agent}i\""), about
// 100 characters a line.
func accessLogPaste(n int) string {
	var b strings.Builder
	b.WriteString("For the record: the shop API runs on two VMs in the Seoul region, and the 502s started right after the 02:00 deploy.\n\n")
	for i := range n {
		status, size := 200, 512+i%900
		if i%7 == 3 {
			status, size = 502, 157
		}
		fmt.Fprintf(&b, "10.0.%d.%d - - [01/Dec/2026:02:%02d:%02d +0900] \"GET /api/v2/orders/%d HTTP/1.1\" %d %d \"-\" \"okhttp/4.12.0\"\n",
			i%4, 10+i%200, i/60%60, i%60, 40000+i*7, status, size)
	}
	return b.String()
}

// truthViaIngest runs msgs through `memtrace ingest`, twice: the second
// run must skip every message and change nothing (idempotent).
func truthViaIngest(t *testing.T, msgs []truthMsg) (truthGot, string) {
	dir := t.TempDir()
	file, db := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "t.db")
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var lines []string
	for i, m := range msgs {
		raw, _ := json.Marshal(engine.Message{ID: fmt.Sprintf("t%d", i), Session: fmt.Sprintf("s%d", i), Role: m.role, Text: m.text, At: at.Add(time.Duration(i) * 240 * time.Hour)})
		lines = append(lines, string(raw))
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		out, errOut, code := runCLI(t, "ingest", file, "--db", db, "--json")
		if code != 0 {
			return truthGot{}, "ingest failed: " + errOut
		}
		var st engine.IngestStats
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatal(err)
		}
		if run == 1 && (st.Skipped != len(msgs) || st.Stored != 0 || st.Reinforced != 0) {
			return truthGot{}, fmt.Sprintf("re-ingest is not idempotent: %s", out)
		}
	}
	s, err := store.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, _, err := s.FindMemories(context.Background(), engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	g := truthGot{mems: make([][]*engine.Memory, len(msgs)), by: map[int64]int{}}
	for i := range msgs {
		id := fmt.Sprintf("t%d", i)
		for _, m := range all {
			if m.Key == id || strings.HasPrefix(m.Key, id+"#") {
				g.mems[i] = append(g.mems[i], m)
				g.by[m.ID] = i
			}
		}
		slices.SortFunc(g.mems[i], func(a, b *engine.Memory) int { return strings.Compare(a.Key, b.Key) })
	}
	return g, ""
}

// truthViaMCP runs msgs through memory_capture of an in-process MCP
// server, each message in a session of its own.
func truthViaMCP(t *testing.T, msgs []truthMsg) truthGot {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, _ := enginetest.Open(t, filepath.Join(t.TempDir(), "t.db"), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	ct, st := mcp.NewInMemoryTransports()
	srv := mcpServerOf(t, e)
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "truth", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); <-done }()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	g := truthGot{mems: make([][]*engine.Memory, len(msgs)), by: map[int64]int{}}
	for i, m := range msgs {
		var out mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_capture", map[string]any{"text": m.text, "role": m.role, "session": fmt.Sprintf("s%d", i),
			"at": at.Add(time.Duration(i) * 240 * time.Hour).Format(time.RFC3339)}, &out)
		ids := []int64{out.MemoryID}
		if len(out.Statements) > 0 {
			ids = ids[:0]
			for _, s := range out.Statements {
				ids = append(ids, s.MemoryID)
			}
		}
		if out.Outcome != engine.OutcomeStored && out.Outcome != engine.OutcomeReinforced {
			continue
		}
		for _, id := range ids {
			g.by[id] = i
		}
	}
	for id, i := range g.by {
		m, err := e.Store().GetMemory(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		g.mems[i] = append(g.mems[i], m)
	}
	for i := range g.mems {
		slices.SortFunc(g.mems[i], func(a, b *engine.Memory) int { return strings.Compare(a.Key, b.Key) })
	}
	return g
}

// TestIssue29Acceptance: every example behaves as issue 29 describes,
// through both doors.
func TestIssue29Acceptance(t *testing.T) {
	for _, c := range truthCases() {
		t.Run(c.name, func(t *testing.T) {
			g, why := truthViaIngest(t, c.msgs)
			if why == "" {
				why = c.check(g)
			}
			if why != "" {
				t.Errorf("ingest: %s", why)
			}
			if why := c.check(truthViaMCP(t, c.msgs)); why != "" {
				t.Errorf("memory_capture: %s", why)
			}
		})
	}
}
