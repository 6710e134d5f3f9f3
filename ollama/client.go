package ollama

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
	ollamamodel "github.com/ollama/ollama/types/model"

	"memtrace/engine"
)

// Defaults of a judge run.
const (
	// DefaultModel is a small, fast instruction model (seed 001 ran the judge
	// on "a fast model").
	DefaultModel = "qwen2.5:0.5b"
	// DefaultTimeout bounds one request, headers and streamed body together.
	// A cold model load can take tens of seconds on a laptop.
	DefaultTimeout = 2 * time.Minute
	// DefaultSeed is the fixed sampling seed; with temperature 0 it makes
	// reruns reproducible on the same model digest.
	DefaultSeed = 42
)

// HostFromEnv returns the Ollama base URL from OLLAMA_HOST, parsed by
// Ollama's own rules (envconfig.Host): default http://127.0.0.1:11434, a
// bare host gets port 11434, "http://h" port 80, "https://h" port 443.
func HostFromEnv() *url.URL { return envconfig.Host() }

// ClientConfig says where Ollama is and how long to wait for it.
type ClientConfig struct {
	Host    *url.URL      // nil: HostFromEnv()
	Timeout time.Duration // per request; 0: DefaultTimeout
	// BreakAfter is how many judge calls in a row may fail (errors,
	// timeouts, 5xx, answers that stay invalid after the retry) before the
	// client stops asking for the rest of the run; 0 → DefaultBreakAfter,
	// negative → never.
	BreakAfter int
	// Notify, when set, is told once, when the breaker trips.
	Notify func(msg string)
}

// DefaultBreakAfter: five failed calls in a row mean the judge is broken
// for this run, not unlucky.
const DefaultBreakAfter = 5

// Client is a connection to one Ollama server. It is safe for concurrent
// use. It remembers each model's digest after the first look-up so that
// cache keys do not cost a request per verdict.
type Client struct {
	api     *api.Client
	host    *url.URL
	timeout time.Duration
	brk     breaker

	mu     sync.Mutex
	models map[string]ModelInfo
}

// NewClient returns a client whose http.Client has a timeout (the default
// client used by api.ClientFromEnvironment has none, so a hung server would
// hang the judge forever).
func NewClient(cfg ClientConfig) *Client {
	host := cfg.Host
	if host == nil {
		host = HostFromEnv()
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{Timeout: timeout}
	limit := cfg.BreakAfter
	if limit == 0 {
		limit = DefaultBreakAfter
	}
	return &Client{api: api.NewClient(host, hc), host: host, timeout: timeout, models: map[string]ModelInfo{},
		brk: breaker{limit: limit, notify: cfg.Notify}}
}

// Host is the base URL requests go to.
func (c *Client) Host() string { return c.host.String() }

// Timeout is the per-request limit.
func (c *Client) Timeout() time.Duration { return c.timeout }

// ModelInfo identifies the exact model weights behind a name.
type ModelInfo struct {
	Model             string   `json:"model"`
	Digest            string   `json:"digest"`
	Family            string   `json:"family,omitempty"`
	ParameterSize     string   `json:"parameter_size,omitempty"`
	QuantizationLevel string   `json:"quantization_level,omitempty"`
	Capabilities      []string `json:"capabilities,omitempty"`
}

// ModelInfo resolves model on the server: /api/show proves it is present and
// gives its details; the digest comes from /api/tags (ShowResponse carries
// none). A model that /api/tags does not list (a remote model) gets a digest
// derived from its show response, prefixed "show:", so cache keys still
// change when the model does. Successful look-ups are remembered.
func (c *Client) ModelInfo(ctx context.Context, model string) (ModelInfo, error) {
	c.mu.Lock()
	mi, ok := c.models[CanonicalModel(model)]
	c.mu.Unlock()
	if ok {
		return mi, nil
	}
	show, err := c.api.Show(ctx, &api.ShowRequest{Model: model})
	if err != nil {
		return ModelInfo{}, c.explain(ctx, err, model, "looking it up")
	}
	mi = ModelInfo{
		Model:             model,
		Family:            show.Details.Family,
		ParameterSize:     show.Details.ParameterSize,
		QuantizationLevel: show.Details.QuantizationLevel,
	}
	for _, cp := range show.Capabilities {
		mi.Capabilities = append(mi.Capabilities, string(cp))
	}
	list, err := c.api.List(ctx)
	if err != nil {
		return ModelInfo{}, c.explain(ctx, err, model, "listing models")
	}
	for _, m := range list.Models {
		if sameModel(m.Name, model) || sameModel(m.Model, model) {
			mi.Digest = m.Digest
			break
		}
	}
	if mi.Digest == "" {
		b, _ := json.Marshal(struct {
			Modelfile, Parameters, Template string
			Details                         api.ModelDetails
		}{show.Modelfile, show.Parameters, show.Template, show.Details})
		mi.Digest = "show:" + hashHex(b)
	}
	c.mu.Lock()
	c.models[CanonicalModel(model)] = mi
	c.mu.Unlock()
	return mi, nil
}

// CanChat reports whether the model can answer /api/chat: Ollama lists the
// "completion" capability for it. A server too old to list capabilities
// is given the benefit of the doubt.
func (mi ModelInfo) CanChat() bool {
	return len(mi.Capabilities) == 0 || slices.Contains(mi.Capabilities, "completion")
}

// ChatModelInfo is ModelInfo for a model that must judge: a model that
// cannot chat (an embedding-only model) is refused with what to do, before
// any call is made.
func (c *Client) ChatModelInfo(ctx context.Context, model string) (ModelInfo, error) {
	mi, err := c.ModelInfo(ctx, model)
	if err != nil {
		return mi, err
	}
	if !mi.CanChat() {
		return mi, engine.Errorf(engine.EINVALID,
			"model %s on Ollama at %s cannot judge: it has no completion capability (capabilities: %s), so every chat would fail with HTTP 400; choose a chat model with --model or MEMTRACE_JUDGE_MODEL, e.g. %s",
			model, c.Host(), strings.Join(mi.Capabilities, ", "), DefaultModel)
	}
	return mi, nil
}

// CanonicalModel is the name Ollama resolves model to, lower-cased:
// "Qwen2.5:0.5B", "library/qwen2.5:0.5b" and
// "registry.ollama.ai/library/qwen2.5:0.5b" are all "qwen2.5:0.5b", and a
// name without a tag means ":latest". The digest look-up and the verdict
// cache key use it, so every spelling of a model shares its verdicts.
func CanonicalModel(name string) string {
	n := ollamamodel.ParseName(strings.TrimSpace(name))
	if !n.IsValid() {
		return strings.ToLower(strings.TrimSpace(name))
	}
	return strings.ToLower(n.DisplayShortest())
}

// sameModel compares model names the way Ollama resolves them.
func sameModel(a, b string) bool { return CanonicalModel(a) == CanonicalModel(b) }

// chatResult is one streamed answer assembled from its chunks.
type chatResult struct {
	Content    string
	Chunks     int
	DoneReason string
	Metrics    api.Metrics
}

// incompleteError is a 200 stream that ended without done:true while the
// request was alive and within its timeout. Ollama does this when a model
// repeats one token more than 30 times in a row (it logs that only at debug
// level): the answer is invalid, not the server down.
type incompleteError struct{ chunks int }

func (e *incompleteError) Error() string {
	return fmt.Sprintf("the answer stream ended after %d chunks without done (Ollama cuts a stream that repeats one token over and over)", e.chunks)
}

// contextError is Ollama refusing a prompt longer than num_ctx (sent with
// truncate false, so it is never cut silently).
type contextError struct{ msg string }

func (e *contextError) Error() string { return e.msg }

// chat streams one /api/chat call (NDJSON, as Ollama streams by default)
// and assembles the message content. A stream that ends without done:true
// is an *incompleteError unless the timeout or the caller ended it:
// api.Client ignores read errors on the body, so a timeout mid-answer shows
// up only as a missing final chunk.
func (c *Client) chat(ctx context.Context, req *api.ChatRequest) (chatResult, error) {
	var res chatResult
	var sb strings.Builder
	done := false
	start := time.Now()
	err := c.api.Chat(ctx, req, func(r api.ChatResponse) error {
		res.Chunks++
		sb.WriteString(r.Message.Content)
		if r.Done {
			done = true
			res.DoneReason = r.DoneReason
			res.Metrics = r.Metrics
		}
		return nil
	})
	if err != nil {
		var se api.StatusError
		if errors.As(err, &se) && strings.Contains(se.ErrorMessage, "exceeds the context length") && ctx.Err() == nil {
			return res, &contextError{se.ErrorMessage}
		}
		return res, c.explain(ctx, err, req.Model, "judging")
	}
	res.Content = sb.String()
	if !done {
		if ctx.Err() != nil {
			return res, fmt.Errorf("judge: %w", ctx.Err())
		}
		if time.Since(start) >= c.timeout-c.timeout/20 {
			return res, engine.Errorf(engine.EUNAVAIL,
				"Ollama at %s did not finish an answer of model %s within %s (after %d chunks): the model may be slow or the machine busy; retry, raise the timeout, or pick a smaller model",
				c.Host(), req.Model, c.timeout, res.Chunks)
		}
		return res, &incompleteError{chunks: res.Chunks}
	}
	return res, nil
}

// explain turns a transport or API error into an engine error that names
// the host and the model and says what to do next.
func (c *Client) explain(ctx context.Context, err error, model, doing string) error {
	if ctx.Err() != nil {
		// The caller cancelled or its own deadline passed: not Ollama's fault.
		return fmt.Errorf("judge (%s): %w", doing, ctx.Err())
	}
	host := c.Host()
	var se api.StatusError
	var ae api.AuthorizationError
	var ne net.Error
	switch {
	case errors.As(err, &se) && se.StatusCode == http.StatusNotFound:
		return engine.Errorf(engine.EUNAVAIL,
			"model %s is not available on Ollama at %s (%s): run `ollama pull %s`, or choose an installed model (`ollama list`)",
			model, host, se.ErrorMessage, model)
	case errors.As(err, &se):
		msg := se.ErrorMessage
		if msg == "" {
			msg = se.Status
		}
		return engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s failed for model %s (while %s): HTTP %d: %s; check the server log, and `ollama run %s` to see whether the model loads",
			host, model, doing, se.StatusCode, msg, model)
	case errors.As(err, &ae):
		return engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s refused model %s (while %s): it requires sign-in (HTTP %d); use a local model or run `ollama signin`",
			host, model, doing, ae.StatusCode)
	case errors.Is(err, syscall.ECONNREFUSED):
		return engine.Errorf(engine.EUNAVAIL,
			"cannot reach Ollama at %s for model %s (while %s): connection refused; start it with `ollama serve`, or set OLLAMA_HOST to where it listens",
			host, model, doing)
	case errors.As(err, &ne) && ne.Timeout():
		return engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s did not answer within %s for model %s (while %s): the model may still be loading or the machine is busy; retry, raise the timeout, or pick a smaller model",
			host, c.timeout, model, doing)
	case isTransport(err):
		return engine.Errorf(engine.EUNAVAIL,
			"cannot reach Ollama at %s for model %s (while %s): %v; check that `ollama serve` is running and OLLAMA_HOST is right",
			host, model, doing, err)
	default:
		return engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s gave no usable response for model %s (while %s): %v; check the server log, or update Ollama",
			host, model, doing, err)
	}
}

// isTransport reports whether err came from the network rather than from a
// response Ollama sent.
func isTransport(err error) bool {
	var ue *url.Error
	var oe *net.OpError
	return errors.As(err, &ue) || errors.As(err, &oe)
}

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
