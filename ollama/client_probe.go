package ollama

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"memtrace/engine"
)

// Probe is the outcome of one short chat with the judge model.
type Probe struct {
	Latency      time.Duration `json:"-"`
	LatencyMS    int64         `json:"latency_ms"`
	Answer       string        `json:"answer"`
	PromptTokens int           `json:"prompt_tokens"`
	AnswerTokens int           `json:"answer_tokens"`
}

// Probe proves the model can judge: it must list the completion capability
// (an embedding-only model is refused with what to do), and one short chat
// with `format` set, as every verdict is asked, must come back as valid
// JSON. It reports how long that took.
func (c *Client) Probe(ctx context.Context, model string) (Probe, error) {
	if _, err := c.ChatModelInfo(ctx, model); err != nil {
		return Probe{}, err
	}
	stream := true
	req := &api.ChatRequest{
		Model:    model,
		Messages: []api.Message{{Role: "user", Content: `Answer {"ok": true}.`}},
		Stream:   &stream,
		Format:   probeSchema.raw,
		Think:    &api.ThinkValue{Value: false},
		Options:  map[string]any{"temperature": 0, "seed": DefaultSeed, "num_predict": 16},
	}
	start := time.Now()
	res, err := c.chat(ctx, req)
	p := Probe{Latency: time.Since(start), PromptTokens: res.Metrics.PromptEvalCount, AnswerTokens: res.Metrics.EvalCount}
	p.LatencyMS = p.Latency.Milliseconds()
	p.Answer = strings.TrimSpace(res.Content)
	if err != nil {
		return p, err
	}
	if _, verr := validateAnswer(probeSchema, p.Answer); verr != nil {
		return p, engine.Errorf(engine.EUNAVAIL,
			"model %s on Ollama at %s answered a chat with format set, but not with the JSON asked for (%v; answer %q): the server may be too old to support JSON-schema formats (update Ollama), or the model ignores them",
			model, c.Host(), verr, clip(p.Answer, 80))
	}
	return p, nil
}

// String is the probe for people.
func (p Probe) String() string {
	return fmt.Sprintf("%d ms for a %d-token prompt and a %d-token answer", p.LatencyMS, p.PromptTokens, p.AnswerTokens)
}
