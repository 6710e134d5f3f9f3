package ollama

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
)

// The tests named TestReal* run the judge against a real Ollama server:
// the one .ci/ollama.sh builds and starts in CI with the tiny models it
// generates, or a developer's own (OLLAMA_HOST, and MEMTRACE_TEST_MODEL for
// a real model such as qwen2.5:0.5b). Without OLLAMA_HOST they skip loudly;
// in CI (MEMTRACE_REAL_OLLAMA=1 or CI=true) they fail instead.

func realClient(t *testing.T, cfg ClientConfig) *Client {
	t.Helper()
	ollamatest.Real(t)
	if cfg.Timeout == 0 {
		cfg.Timeout = 2 * time.Minute
	}
	return NewClient(cfg)
}

// TestRealCheck: the check chats once with format on a chat model and
// refuses an embedding-only one before any chat.
func TestRealCheck(t *testing.T) {
	chat := ollamatest.RealModel(t, ollamatest.ChatModel)
	c := realClient(t, ClientConfig{})
	ctx := context.Background()
	p, err := c.Probe(ctx, chat)
	if err != nil {
		t.Fatalf("probe %s: %s", chat, engine.ErrorMessage(err))
	}
	if p.AnswerTokens == 0 || !strings.HasPrefix(p.Answer, "{") {
		t.Fatalf("probe = %+v", p)
	}
	t.Logf("probe %s: %s", chat, p)

	embed := ollamatest.RealModel(t, ollamatest.EmbedModel)
	_, err = c.Probe(ctx, embed)
	if engine.ErrorCode(err) != engine.EINVALID || !strings.Contains(engine.ErrorMessage(err), "no completion capability") {
		t.Fatalf("probe of the embedding model %s: err = %v, want a refusal naming the capability", embed, err)
	}
	_, err = NewTriager(c, Options{Model: embed}).Triage(ctx, TriageItem{ID: 1, Type: "milestone", Text: "hello"})
	if engine.ErrorCode(err) != engine.EINVALID {
		t.Fatalf("triage with the embedding model: err = %v, want the same refusal", err)
	}
}

// TestRealVerdictsStayInTheSchema: with the enum and integer schema every
// answer of the chat model is schema-shaped — labels from the allowed set,
// importance and confidence in 0..1 — or needs_review, never junk. It also
// logs the per-call latency.
func TestRealVerdictsStayInTheSchema(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.ChatModel)
	c := realClient(t, ClientConfig{})
	ctx := context.Background()
	texts := []string{
		"I'm allergic to peanuts, please remember that. 땅콩 알레르기가 있어.",
		"오늘 점심 뭐 먹지?",
		"We got engaged last night! 어제 약혼했어.",
		"*smiles and bows* I will always serve you, my queen.",
		"From now on, always answer me in Korean. 앞으로 한국어로 대답해.",
		"ok thanks",
	}
	var lat []time.Duration
	cj := NewCaptureJudge(c, Options{Model: model})
	tr := NewTriager(c, Options{Model: model})
	review := 0
	// All captures, then all triages: each shares its system prompt, so
	// the server reuses the prompt's prefix as it does in a real run.
	for _, text := range texts {
		start := time.Now()
		v, err := cj.JudgeCapture(ctx, engine.CaptureInput{Text: text, Role: "user", Detail: engine.DetailMedium})
		lat = append(lat, time.Since(start))
		if err != nil {
			t.Fatalf("capture %q: %s", text, engine.ErrorMessage(err))
		}
		if v.NeedsReview {
			review++
		} else if !slices.Contains(DefaultTypes, v.Type) || v.Kind != engine.KindFact && v.Kind != engine.KindEpisode || v.Importance < 0 || v.Importance > 1 {
			t.Fatalf("capture verdict outside the schema: %+v", v)
		}
	}
	for _, text := range texts {
		start := time.Now()
		tv, err := tr.Triage(ctx, TriageItem{ID: 1, Type: "milestone", Text: text})
		lat = append(lat, time.Since(start))
		if err != nil {
			t.Fatalf("triage %q: %s", text, engine.ErrorMessage(err))
		}
		switch {
		case tv.NeedsReview:
			review++
		case tv.Verdict == VerdictRetype && (!slices.Contains(DefaultTypes, tv.RetypeTo) || tv.RetypeTo == "milestone"):
			t.Fatalf("retype outside the schema: %+v", tv)
		case !slices.Contains([]string{VerdictKeep, VerdictEcho, VerdictRoleplay, VerdictRetype}, tv.Verdict) || tv.Confidence < 0 || tv.Confidence > 1:
			t.Fatalf("triage verdict outside the schema: %+v", tv)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("model %s: %d calls, latency p50 %s p95 %s; %d needs_review", model, len(lat), lat[len(lat)/2], lat[len(lat)*95/100], review)
	if ollamatest.Tiny(model) && review > len(lat)/4 {
		t.Errorf("%d of %d answers needed review: the schema no longer shapes the tiny model's answers", review, len(lat))
	}

	// Temperature 0 and a fixed seed: the same item gives the same verdict.
	item := TriageItem{ID: 1, Type: "milestone", Text: "[milestone] 오늘 점심 뭐 먹지?"}
	a, err := tr.Triage(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.Triage(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	if a.Label() != b.Label() || a.Confidence != b.Confidence {
		t.Fatalf("not reproducible: %s@%.2f then %s@%.2f", a.Label(), a.Confidence, b.Label(), b.Confidence)
	}
}

// TestRealRepeatingModel: the server ends the repeat-prone model's streams
// without done. Each item comes back needs_review after one retry, never
// an error; after BreakAfter such items the breaker trips, says so once,
// and the rest are not sent at all.
func TestRealRepeatingModel(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.RepeatModel)
	var notes atomic.Int32
	var note atomic.Value
	c := realClient(t, ClientConfig{BreakAfter: 2, Notify: func(m string) { notes.Add(1); note.Store(m) }})
	tr := NewTriager(c, Options{Model: model})
	ctx := context.Background()
	for i := 1; i <= 2; i++ {
		v, err := tr.Triage(ctx, TriageItem{ID: int64(i), Type: "milestone", Text: "We got engaged last night!"})
		if err != nil {
			t.Fatalf("item %d: the repeating model stopped the run: %s", i, engine.ErrorMessage(err))
		}
		if !v.NeedsReview || v.Attempts != 2 || !strings.Contains(v.Reason, "without done") {
			t.Fatalf("item %d: %+v, want needs_review after a retry, naming the cut stream", i, v)
		}
	}
	if notes.Load() != 1 || !strings.Contains(note.Load().(string), "2 calls in a row") {
		t.Fatalf("breaker notices = %d (%v), want one naming the count", notes.Load(), note.Load())
	}
	start := time.Now()
	v, err := tr.Triage(ctx, TriageItem{ID: 3, Type: "milestone", Text: "another"})
	if err != nil || !v.NeedsReview || v.Attempts != 0 || !strings.HasPrefix(v.Reason, "not judged: judge stopped") {
		t.Fatalf("after the trip: %+v, %v; want needs_review without a call", v, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("the open breaker still waited %s", d)
	}
	if _, err := NewCaptureJudge(c, Options{Model: model}).JudgeCapture(ctx, engine.CaptureInput{Text: "x", Role: "user"}); !errors.Is(err, ErrBreakerOpen) {
		t.Fatalf("capture after the trip: err = %v, want ErrBreakerOpen", err)
	}
	if notes.Load() != 1 {
		t.Fatalf("the breaker spoke %d times, want once", notes.Load())
	}
}

// TestRealLongPrompt: a memory longer than Ollama's default context of
// 4096 tokens is judged whole — num_ctx sized from the prompt, and sized
// up when the server refuses it (truncate false): Korean costs the tiny
// model a token a byte, twice the estimate — and the server evaluates
// every token. One past MaxInputBytes is clipped with a visible note.
func TestRealLongPrompt(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.ChatModel)
	c := realClient(t, ClientConfig{Timeout: 5 * time.Minute})
	ctx := context.Background()
	// ~4.4 KB: with the triage prompt about 4,700 tiny-model tokens, more
	// than the 4096 the byte estimate asks for.
	long := strings.Repeat("부산으로 이사했고 아이들이 학교에 다니기 시작했어. ", 60)
	o := Options{Model: model}.withDefaults()
	a, err := ask(ctx, c, o, "triage", triageSystemPrompt("milestone", o.Types), delimit(long), nil, triageSchema, func(map[string]any) error { return nil })
	if err != nil {
		t.Fatalf("%s", engine.ErrorMessage(err))
	}
	t.Logf("long prompt: %d bytes, %d prompt tokens evaluated, num_ctx %d, invalid %v", len(long), a.promptTokens, a.numCtx, a.invalid)
	if ollamatest.Tiny(model) && (a.numCtx <= minNumCtx || a.promptTokens <= minNumCtx) || a.promptTokens >= a.numCtx || a.promptTokens < 100 {
		t.Fatalf("prompt tokens %d, num_ctx %d: the prompt was not sized or was cut", a.promptTokens, a.numCtx)
	}

}

// TestClipInput: a memory over MaxInputBytes is cut on a rune boundary and
// the note says how much the judge saw.
func TestClipInput(t *testing.T) {
	huge := strings.Repeat("가나다라마바사 ", 3000) // 66 KB
	c, note := clipInput(huge)
	if len(c) > MaxInputBytes || !utf8.ValidString(c) || !strings.Contains(note, fmt.Sprintf("the first %d of %d bytes", len(c), len(huge))) {
		t.Fatalf("clip: %d bytes, note %q", len(c), note)
	}
	if c, note := clipInput("short"); c != "short" || note != "" {
		t.Fatalf("a short text was clipped: %q %q", c, note)
	}
}

// TestRealModelNames: every spelling of a model resolves to the same
// digest and the same cache key.
func TestRealModelNames(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.ChatModel)
	c := realClient(t, ClientConfig{})
	ctx := context.Background()
	base := strings.TrimSuffix(model, ":latest")
	tag := "latest"
	if i := strings.LastIndex(base, ":"); i > strings.LastIndex(base, "/") {
		base, tag = base[:i], base[i+1:]
	}
	names := []string{model, "library/" + base + ":" + tag, "registry.ollama.ai/library/" + base + ":" + tag, strings.ToUpper(base) + ":" + tag}
	var digest, key string
	for _, n := range names {
		mi, err := c.ModelInfo(ctx, n)
		if err != nil {
			t.Fatalf("%s: %s", n, engine.ErrorMessage(err))
		}
		k := Options{Model: n}.withDefaults().optionsHash()
		if digest == "" {
			digest, key = mi.Digest, k
		}
		if mi.Digest != digest || k != key || strings.HasPrefix(mi.Digest, "show:") {
			t.Fatalf("%s: digest %s key %s, want %s %s (as %s)", n, mi.Digest, k, digest, key, names[0])
		}
	}
	// A fresh client resolves the spellings over the wire, not from its memory.
	for _, n := range names[1:] {
		mi, err := realClient(t, ClientConfig{}).ModelInfo(ctx, n)
		if err != nil || mi.Digest != digest {
			t.Fatalf("fresh client, %s: %+v %v; want digest %s", n, mi, err, digest)
		}
	}
}
