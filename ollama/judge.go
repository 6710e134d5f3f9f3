package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"memtrace/internal/version"
)

// Options configure a CaptureJudge or a Triager.
type Options struct {
	Model string // "" → DefaultModel
	Seed  int    // 0 → DefaultSeed
	// MaxTokens bounds one answer (num_predict); the verdicts are short, and
	// a bound turns a runaway model into a cut-off, rejected answer instead
	// of a hung run. 0 → 256.
	MaxTokens int
	Cache     Cache            // nil: every item is judged
	Now       func() time.Time // nil: time.Now; stamps cache entries
	Types     []string         // labels the judge may assign; nil → DefaultTypes
	// EchoBelow is the triage confidence below which any verdict other than
	// echo becomes echo (seed 001: ambiguous → echo). 0 → DefaultEchoBelow.
	EchoBelow float64
}

// DefaultEchoBelow: a triage verdict the judge is less than 60% sure of is
// treated as ambiguous and mapped to echo (quarantine, reversible), the
// conservative choice of seed 001.
const DefaultEchoBelow = 0.6

func (o Options) withDefaults() Options {
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 256
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if len(o.Types) == 0 {
		o.Types = DefaultTypes
	}
	if o.EchoBelow <= 0 {
		o.EchoBelow = DefaultEchoBelow
	}
	return o
}

// sampling is the options map sent with every chat. A map, not
// api.Options: the typed struct marshals with omitempty and would drop
// temperature 0, leaving the model's default (0.8) in force.
func (o Options) sampling() map[string]any {
	return map[string]any{"temperature": 0, "seed": o.Seed, "num_predict": o.MaxTokens}
}

// optionsHash covers everything in the request besides the prompt, the
// schema and the weights. The model enters by its canonical name, so
// "Qwen2.5:0.5B" and "library/qwen2.5:0.5b" share verdicts; num_ctx does
// not enter: it only sizes the context, and a prompt that does not fit is
// refused, never judged cut.
func (o Options) optionsHash() string {
	b, _ := json.Marshal(struct {
		Model   string         `json:"model"`
		Options map[string]any `json:"options"`
		Think   bool           `json:"think"`
	}{CanonicalModel(o.Model), o.sampling(), false})
	return hashHex(b)
}

// Context sizes (num_ctx) the judge asks for: Ollama's usual default, up
// to a size small models still support.
const (
	minNumCtx = 4096
	maxNumCtx = 32768
)

// MaxInputBytes is how much of one memory text the judge sees; a longer
// text is clipped on a rune boundary and the verdict's reason says so.
const MaxInputBytes = 16000

// clipInput clips text to MaxInputBytes; note is "" or the visible note
// for the verdict.
func clipInput(text string) (clipped, note string) {
	if len(text) <= MaxInputBytes {
		return text, ""
	}
	c := clip(text, MaxInputBytes)
	return c, fmt.Sprintf("[clipped: the judge saw the first %d of %d bytes]", len(c), len(text))
}

// numCtxFor sizes the context for msgs: a byte-level estimate of the
// prompt (real tokenizers average well over two bytes a token) plus the
// answer budget, rounded up to a power of two so that Ollama does not
// reload the model for every size.
func numCtxFor(msgs []api.Message, maxTokens int) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + 16
	}
	need := n/2 + maxTokens + 64
	size := minNumCtx
	for size < need && size < maxNumCtx {
		size *= 2
	}
	return size
}

// answer is the outcome of asking the model one question.
type answer struct {
	raw      json.RawMessage // the validated answer, compact
	fields   map[string]any
	model    ModelInfo
	key      CacheKey
	cached   bool
	attempts int
	invalid  error // set when the answer failed validation twice: needs review
	// promptTokens and numCtx are those of the last call (0 when cached).
	promptTokens, numCtx int
}

// ask sends system+user (which quotes texts: the memories and messages
// judged, whose hashes the cache entry keeps) with format=schema, validates the answer (schema,
// then check), retries once with the rejection in the conversation (with
// temperature 0 and a fixed seed the same request would only repeat the
// same answer), and caches a valid answer. An error means the call could
// not be made; an invalid answer — including a stream Ollama ended without
// done, or a prompt that does not fit the model's context — is not an
// error but answer.invalid. Every call counts for the client's breaker;
// once it is open, ask fails at once with an error matching
// ErrBreakerOpen.
func ask(ctx context.Context, c *Client, o Options, kind, system, user string, texts []string, schema *format, check func(map[string]any) error) (answer, error) {
	if err := c.brk.allow(); err != nil {
		return answer{}, err
	}
	a, err := askModel(ctx, c, o, kind, system, user, texts, schema, check)
	switch {
	case err != nil && ctx.Err() != nil:
		// Cancelled by the caller: not the judge's failure.
	case err != nil:
		c.brk.record(c.Host(), o.Model, err)
	case a.invalid != nil:
		c.brk.record(c.Host(), o.Model, fmt.Errorf("invalid answer: %w", a.invalid))
	case !a.cached:
		c.brk.record(c.Host(), o.Model, nil)
	}
	return a, err
}

func askModel(ctx context.Context, c *Client, o Options, kind, system, user string, texts []string, schema *format, check func(map[string]any) error) (answer, error) {
	mi, err := c.ChatModelInfo(ctx, o.Model)
	if err != nil {
		return answer{}, err
	}
	a := answer{model: mi, key: CacheKey{
		Digest:        mi.Digest,
		PromptVersion: PromptVersion,
		SchemaHash:    SchemaHash(schema.raw),
		OptionsHash:   o.optionsHash(),
		InputHash:     hashHex([]byte(system + "\x00" + user)),
	}}
	if o.Cache != nil {
		e, ok, err := o.Cache.Get(ctx, a.key.ID())
		if err != nil {
			return answer{}, fmt.Errorf("judge cache: %w", err)
		}
		if ok {
			// Re-validate: a cache file edited by hand must not smuggle in
			// an action. An entry that fails is ignored and re-judged.
			if fields, err := validateAnswer(schema, string(e.Verdict)); err == nil && check(fields) == nil {
				a.raw, a.fields, a.cached = e.Verdict, fields, true
				return a, nil
			}
		}
	}
	stream, truncate := true, false
	req := &api.ChatRequest{
		Model: o.Model,
		Messages: []api.Message{
			{Role: "system", Content: system},
			{Role: "user", Content: user},
		},
		Stream: &stream,
		Format: schema.raw,
		Think:  &api.ThinkValue{Value: false},
		// Refuse, never cut: Ollama's default truncation keeps a few tokens
		// of the head and drops the system prompt with the judging rules,
		// while still answering 200.
		Truncate: &truncate,
	}
	numCtx := numCtxFor(req.Messages, o.MaxTokens)
	for a.attempts < 2 {
		a.attempts++
		opts := o.sampling()
		if n := numCtxFor(req.Messages, o.MaxTokens); n > numCtx {
			numCtx = n
		}
		opts["num_ctx"] = numCtx
		req.Options = opts
		res, err := c.chat(ctx, req)
		a.numCtx, a.promptTokens = numCtx, res.Metrics.PromptEvalCount
		var verr error
		var incomplete *incompleteError
		var tooLong *contextError
		switch {
		case errors.As(err, &tooLong) && numCtx < maxNumCtx:
			// The estimate was short for this tokenizer: a bigger context,
			// and the attempt does not count.
			numCtx = min(numCtx*4, maxNumCtx)
			a.attempts--
			continue
		case errors.As(err, &tooLong):
			a.invalid = fmt.Errorf("the prompt does not fit the model's context of %d tokens (%s)", numCtx, tooLong.msg)
			return a, nil
		case errors.As(err, &incomplete):
			verr = incomplete
		case err != nil:
			return answer{}, err
		}
		content := strings.TrimSpace(res.Content)
		if verr == nil {
			var fields map[string]any
			fields, verr = validateAnswer(schema, content)
			if verr == nil {
				verr = check(fields)
			}
			if verr == nil && res.DoneReason == "length" {
				verr = fmt.Errorf("answer was cut off at %d tokens", o.MaxTokens)
			}
			if verr == nil && res.Metrics.PromptEvalCount >= numCtx-1 {
				// A server that ignores truncate:false cut the prompt.
				verr = fmt.Errorf("the prompt filled the whole context (%d of %d tokens): it was truncated", res.Metrics.PromptEvalCount, numCtx)
			}
			if verr == nil {
				var buf bytes.Buffer
				_ = json.Compact(&buf, []byte(content))
				a.raw, a.fields, a.invalid = buf.Bytes(), fields, nil
				if o.Cache != nil {
					e := CacheEntry{ID: a.key.ID(), Key: a.key, Kind: kind, Model: o.Model, Verdict: a.raw, At: o.Now().UTC(), Memtrace: version.String(), Texts: textHashes(texts)}
					if err := o.Cache.Put(ctx, e); err != nil {
						return answer{}, fmt.Errorf("judge cache: %w", err)
					}
				}
				return a, nil
			}
		}
		a.invalid = verr
		req.Messages = append(req.Messages,
			api.Message{Role: "assistant", Content: clip(content, 2000)},
			api.Message{Role: "user", Content: fmt.Sprintf(retryInstruction, verr)})
	}
	return a, nil
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func num(m map[string]any, k string) float64 {
	f, _ := m[k].(float64)
	return f
}

// fraction reads an integer 0–100 field as a fraction 0..1, the scale the
// engine and the verdict files use.
func fraction(m map[string]any, k string) float64 { return num(m, k) / 100 }
