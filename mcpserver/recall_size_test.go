package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
)

// stringify is what JSON.stringify(structuredContent) hands a model
// (Claude Code, VS Code): the decoded object again, without Go's HTML
// escaping (JSON.stringify leaves <, > and & as they are).
func stringify(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// summaryBudget is what the default text content may spend on its one line.
const summaryBudget = 32

// contractFloor is the smallest structuredContent the memory_recall
// contract allows for out's survivors, built from the store and not from
// the result: every field emitted today (trace_id, at, prompt_chars,
// guaranteed, read_only; each survivor's id, date, text, and a former
// fact's superseded_by and valid_to) at its shortest exact encoding.
func contractFloor(t *testing.T, e *engine.Engine, out RecallOut, at time.Time) string {
	t.Helper()
	svs := []map[string]any{}
	for _, sv := range out.Survivors {
		m, ok := e.Memory(sv.ID)
		if !ok {
			t.Fatalf("survivor %d is no memory", sv.ID)
		}
		one := map[string]any{"id": m.ID, "date": m.CreatedAt.UTC().Format("2006-01-02"), "text": engine.SanitizeText(m.Content)}
		if m.SupersededBy != 0 {
			one["superseded_by"], one["valid_to"] = m.SupersededBy, m.ValidTo
		}
		svs = append(svs, one)
	}
	return stringify(t, map[string]any{"trace_id": out.TraceID, "at": at, "prompt_chars": out.PromptChars,
		"guaranteed": out.Guaranteed, "read_only": out.ReadOnly, "survivors": svs})
}

// TestRecallResultWithinItsBlock (issue #30): every default memory_recall —
// only a query, English and Korean, one short memory to eight, former facts
// among them — forwards (structuredContent and the text content together)
// at most 1.3× the block it stands for, or, where the contract's own fields
// already weigh more than that (one or two short memories), nothing beyond
// them and a summary line of summaryBudget characters. A client reading
// only structuredContent finds every survivor's text.
func TestRecallResultWithinItsBlock(t *testing.T) {
	at := time.Date(2026, 6, 1, 9, 0, 0, 123456789, time.UTC) // a live clock's nanoseconds
	cs, e := connect(t, at)
	loadDemo(t, e)
	ctx := context.Background()
	var prompts, results, floors, within, floored, former, single int
	langs := map[string]int{}
	for _, q := range []string{
		"유당불내증 있으면 뭐 피해야 해?", "내 핸드폰 기종이 뭐야?", "여동생 이름이 뭐야?", "예전에 쓰던 핸드폰 뭐였지?", "영원히 믿겠어요",
		"garden-app 푸시 알림은 어떻게 하기로 했지?", "충주 시에 충주 사과가 맛있었지?", "유당불내증 음식 추천",
		"What batch size does memtrace ingest use by default?", "what is my blood type", "when is my dentist appointment?",
		"what am I allergic to?", "What is planned for memtrace v1.1?", "where was my old flat?", "what database does memtrace use and why?",
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": q}})
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %s", q, err, resultText(res))
		}
		_, out := structuredOnly(t, res)
		if len(out.Survivors) == 0 || out.PromptChars == 0 {
			t.Fatalf("%q recalled nothing: the bound would say nothing", q)
		}
		langs[scriptOfQuery(q)]++
		if len(out.Survivors) == 1 {
			single++
		}
		for _, sv := range out.Survivors {
			m, _ := e.Memory(sv.ID)
			if sv.Text == "" || sv.Text != engine.SanitizeText(m.Content) {
				t.Errorf("%q: survivor %d text %q does not reach a structured-only client", q, sv.ID, sv.Text)
			}
			if m.SupersededBy != 0 {
				former++
				if sv.SupersededBy != m.SupersededBy || !sv.ValidTo.Equal(m.ValidTo) {
					t.Errorf("%q: former fact %d without superseded_by %d and valid_to", q, sv.ID, m.SupersededBy)
				}
			}
		}
		sc := stringify(t, res.StructuredContent)
		summary := resultText(res)
		if utf8.RuneCountInString(summary) > summaryBudget {
			t.Errorf("%q: summary line %q is over %d characters", q, summary, summaryBudget)
		}
		n := utf8.RuneCountInString(sc) + utf8.RuneCountInString(summary)
		floor := utf8.RuneCountInString(contractFloor(t, e, out, at))
		r := float64(n) / float64(out.PromptChars)
		t.Logf("%q: %d memories, block %d, forwarded %d (%.2f×), contract floor %d (%.2f×)", q, len(out.Survivors),
			out.PromptChars, n, r, floor, float64(floor)/float64(out.PromptChars))
		switch {
		case r <= 1.3:
			within++
		case n <= floor+summaryBudget:
			floored++
		default:
			t.Errorf("%q: %d characters are %.2f× the %d-character block and %d over the contract's floor %d: %s | %s",
				q, n, r, out.PromptChars, n-floor, floor, sc, summary)
		}
		prompts += out.PromptChars
		results += n
		floors += floor
	}
	// Over this set the contract's fields alone are about 1.29× the
	// blocks and the summary lines add the rest: the 1.3× over a set holds
	// for TestRecallTextsReachStructuredOnlyClients's three queries, not
	// for one weighted to one-memory results.
	t.Logf("%d calls within 1.3× their block, %d above it on the contract's fields and the summary line; together %.2f× the blocks (floors %.2f×)",
		within, floored, float64(results)/float64(prompts), float64(floors)/float64(prompts))
	if within == 0 {
		t.Errorf("no call within 1.3× its block")
	}
	if langs["ko"] < 5 || langs["en"] < 5 || single < 3 || former == 0 {
		t.Fatalf("the set covers %v queries, %d one-memory results, %d former facts: want both languages, short results and a former fact", langs, single, former)
	}
}

// scriptOfQuery is "ko" for a query with Hangul in it.
func scriptOfQuery(q string) string {
	for _, r := range q {
		if r >= 0xAC00 && r <= 0xD7A3 {
			return "ko"
		}
	}
	return "en"
}
