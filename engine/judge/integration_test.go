package judge

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"memtrace/engine"
)

// TestRealOllama runs the judge against a real server. It needs
// OLLAMA_HOST (parsed by Ollama's rules) and the model in
// MEMTRACE_TEST_MODEL (default qwen2.5:0.5b) pulled on that server.
func TestRealOllama(t *testing.T) {
	if os.Getenv("OLLAMA_HOST") == "" {
		t.Skip("OLLAMA_HOST is not set: to test against a real Ollama run `OLLAMA_HOST=127.0.0.1:11434 MEMTRACE_TEST_MODEL=qwen2.5:0.5b go test ./engine/judge -run RealOllama`")
	}
	model := os.Getenv("MEMTRACE_TEST_MODEL")
	if model == "" {
		model = DefaultModel
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := NewClient(ClientConfig{Timeout: 5 * time.Minute})

	mi, err := c.ModelInfo(ctx, model)
	if err != nil {
		t.Fatalf("%s", engine.ErrorMessage(err))
	}
	if mi.Digest == "" {
		t.Fatalf("no digest for %s: %+v", model, mi)
	}
	t.Logf("model %s digest %s (%s %s)", model, mi.Digest, mi.ParameterSize, mi.QuantizationLevel)

	cj := NewCaptureJudge(c, Options{Model: model})
	v, err := cj.JudgeCapture(ctx, engine.CaptureInput{Text: "I'm allergic to peanuts, please remember that. 땅콩 알레르기가 있어.", Role: "user", Detail: engine.DetailMedium})
	if err != nil {
		t.Fatalf("%s", engine.ErrorMessage(err))
	}
	if !v.NeedsReview && (v.Kind != engine.KindFact && v.Kind != engine.KindEpisode || v.Importance < 0 || v.Importance > 1) {
		t.Fatalf("capture verdict escaped validation: %+v", v)
	}
	t.Logf("capture: %+v", v)

	tr := NewTriager(c, Options{Model: model})
	item := TriageItem{ID: 1, Type: "milestone", Text: "[milestone] 오늘 점심 뭐 먹지?"}
	a, err := tr.Triage(ctx, item)
	if err != nil {
		t.Fatalf("%s", engine.ErrorMessage(err))
	}
	allowed := []string{VerdictKeep, VerdictEcho, VerdictRoleplay, VerdictRetype, VerdictNeedsReview}
	if !slices.Contains(allowed, a.Verdict) || a.Digest != mi.Digest {
		t.Fatalf("triage verdict: %+v", a)
	}
	// Temperature 0 and a fixed seed: the same item gives the same verdict.
	b, err := tr.Triage(ctx, item)
	if err != nil {
		t.Fatalf("%s", engine.ErrorMessage(err))
	}
	if a.Label() != b.Label() || a.Confidence != b.Confidence {
		t.Fatalf("not reproducible: %s@%.2f then %s@%.2f", a.Label(), a.Confidence, b.Label(), b.Confidence)
	}
	t.Logf("triage: %s (%.2f) %s", a.Label(), a.Confidence, a.Reason)
}
