// Package judge is memtrace's local LLM judge and embedder on Ollama
// (github.com/ollama/ollama/api): the L3 capture judge (engine.Judge), the
// triage judge for already-stored populations (Triager), a verdict cache
// keyed by what determines a verdict, and an /api/embed Embedder.
//
// Every call is deterministic as far as Ollama allows: temperature 0 and a
// fixed seed passed as an options map (Ollama's typed Options would drop the
// zero temperature), thinking off, and `format` set to a JSON schema. Every
// answer is validated against that schema; an answer that does not validate
// is retried once and then reported as needs-review — never acted upon.
// Memory text is untrusted data: it is delimited, escaped, stripped of
// extraction labels that would leak the answer, and scanned for attempts to
// instruct the judge, which are flagged for the curator.
package judge

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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"

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
}

// Client is a connection to one Ollama server. It is safe for concurrent
// use. It remembers each model's digest after the first look-up so that
// cache keys do not cost a request per verdict.
type Client struct {
	api     *api.Client
	host    *url.URL
	timeout time.Duration

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
	return &Client{api: api.NewClient(host, hc), host: host, timeout: timeout, models: map[string]ModelInfo{}}
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
	mi, ok := c.models[model]
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
	c.models[model] = mi
	c.mu.Unlock()
	return mi, nil
}

// sameModel compares model names the way Ollama resolves them: a name
// without a tag means ":latest".
func sameModel(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if i := strings.LastIndex(s, "/"); !strings.Contains(s[i+1:], ":") {
			s += ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}

// chatResult is one streamed answer assembled from its chunks.
type chatResult struct {
	Content    string
	Chunks     int
	DoneReason string
	Metrics    api.Metrics
}

// chat streams one /api/chat call (NDJSON, as Ollama streams by default)
// and assembles the message content. A stream that ends without done:true
// is an error: api.Client ignores read errors on the body, so a timeout
// mid-answer shows up only as a missing final chunk.
func (c *Client) chat(ctx context.Context, req *api.ChatRequest) (chatResult, error) {
	var res chatResult
	var sb strings.Builder
	done := false
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
		return res, c.explain(ctx, err, req.Model, "judging")
	}
	if !done {
		if ctx.Err() != nil {
			return res, fmt.Errorf("judge: %w", ctx.Err())
		}
		return res, engine.Errorf(engine.EUNAVAIL,
			"Ollama at %s stopped streaming before model %s finished (after %d chunks); it may have hit the %s timeout or crashed: check `ollama ps` and the server log, or raise the timeout",
			c.Host(), req.Model, res.Chunks, c.timeout)
	}
	res.Content = sb.String()
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
