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

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
		{"assistant promise is no rule", []truthMsg{{"assistant", "Understood. From now on I will only use pnpm in this repo."}}, func(g truthGot) string {
			for _, m := range g.mems[0] {
				if m.Type == "rule" || m.Type == "correction" {
					return "assistant text became " + g.describe(0)
				}
			}
			return ""
		}},
	}
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
	srv := mcpserver.New(e, mcpserver.Options{})
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
