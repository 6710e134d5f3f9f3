package capture

import (
	"strings"

	"memtrace/engine"
	"memtrace/engine/secret"
)

// LayerSecret is the capture trail's layer of secret redaction (issue 31):
// it runs first, before L1, so that no later layer, the judge, the
// embedder, the store or a trace ever sees a raw value. Its decision's
// Pattern names the table's patterns it found ("password,jwt"), so the
// capture log counts redactions by pattern like any other filter.
const LayerSecret = "secret"

// VerdictRedact is the secret layer's verdict when it replaced a value.
const VerdictRedact = "redact"

// ReasonSecretHeld is a capture's reason when it held a message for its
// secret values (HoldSecrets).
const ReasonSecretHeld = "secret_held"

// HoldSecrets makes the Capturer hold, instead of store, every message
// that held a secret value (`--secrets hold`, for curators who want to see
// them): the message waits in the review queue with its raw text and the
// patterns found; its capture record, the judge, the embedder and the
// store only ever see the placeholders. `review store` stores it redacted,
// `review skip` drops it, and either leaves only the redacted text in the
// queue.
func (c *Capturer) HoldSecrets() { c.holdSecrets = true }

// holdSecret holds p in the review queue for its secret values: no later
// layer runs.
func holdSecret(p *pending) {
	r := p.res
	names := strings.Join(Redactions(r), ", ")
	why := "secret values held for the curator (--secrets hold): " + names +
		"; `memtrace review store ID` stores the text with placeholders, `memtrace review skip ID` drops it"
	r.Outcome, r.Reason = engine.OutcomeHeld, ReasonSecretHeld
	p.held = &engine.ReviewItem{Reason: why, Judge: LayerSecret}
	r.Trail = append(r.Trail, engine.Decision{Layer: LayerSecret, Verdict: "hold", Pattern: strings.ReplaceAll(names, ", ", ","), Reason: why})
}

// redactSecrets replaces every secret value in m.Text with its typed
// placeholder (package secret) and returns the trail decision that says
// so, or nil when the text held none.
func redactSecrets(m *engine.Message) *engine.Decision {
	r := secret.Redact(m.Text)
	if len(r.Findings) == 0 {
		return nil
	}
	m.Text = r.Text
	names := r.Names()
	return &engine.Decision{Layer: LayerSecret, Verdict: VerdictRedact, Pattern: strings.Join(names, ","),
		Reason: "secret values replaced by placeholders: " + strings.Join(names, ", ")}
}

// Redactions are the table's pattern names whose values were replaced in
// the message of r (its trail's secret decision), for the counts by
// pattern of an ingest or import; nil when none.
func Redactions(r *engine.CaptureResult) []string {
	for _, d := range r.Trail {
		if d.Layer == LayerSecret && d.Pattern != "" {
			return strings.Split(d.Pattern, ",")
		}
	}
	return nil
}

// RedactSecrets is package secret's Redact for the doors that do not go
// through CaptureBatch (`memtrace add`, the Markdown import): the text with
// every secret value replaced, and the pattern names found.
func RedactSecrets(text string) (string, []string) {
	r := secret.Redact(text)
	return r.Text, r.Names()
}

// redactFields replaces the secret values in a stored memory's metadata
// (an import keeps it, `show` prints it), at any depth: a string that holds
// one, or one its key names ({"password": "…"}: the key and the value read
// as an assignment).
func redactFields(key string, v any) any {
	switch x := v.(type) {
	case string:
		if r := secret.Redact(x); len(r.Findings) > 0 {
			return r.Text
		}
		if key == "" {
			return x
		}
		assign := key + " = "
		if r := secret.Redact(assign + x); len(r.Findings) > 0 && strings.HasPrefix(r.Text, assign) {
			return r.Text[len(assign):]
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = redactFields(k, e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = redactFields(key, e)
		}
		return x
	}
	return v
}
