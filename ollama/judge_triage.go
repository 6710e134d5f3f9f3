package ollama

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"memtrace/engine"
)

// Triage verdicts: the engine's (engine.TriageKeep …). The model answers
// one of the first four; the client adds needs_review for an answer that
// failed validation twice.
const (
	VerdictKeep        = engine.TriageKeep
	VerdictEcho        = engine.TriageEcho
	VerdictRoleplay    = engine.TriageRoleplay
	VerdictRetype      = engine.TriageRetype
	VerdictNeedsReview = engine.TriageNeedsReview
)

// TriageItem is one stored memory under review (the label under review in
// Type, e.g. "milestone").
type TriageItem = engine.TriageItem

// TriageVerdict is the judge's decision on one item: the engine's type, so
// the triage workflow takes it as it is.
type TriageVerdict = engine.TriageVerdict

// Triager judges already-stored memories of a population (seed 001, Fix B).
// Every item is judged by the model — no keyword shortcut for old data. It
// is the engine.Triager that engine.RunTriage calls.
type Triager struct {
	client *Client
	opts   Options
}

var _ engine.Triager = (*Triager)(nil)

// NewTriager returns a triager using client and o.Model.
func NewTriager(client *Client, o Options) *Triager {
	return &Triager{client: client, opts: o.withDefaults()}
}

// Model is the model name the triager asks.
func (t *Triager) Model() string { return t.opts.Model }

// Triage judges one item. Extraction-label prefixes are stripped first
// (they leak the answer); the text is delimited data and is scanned for
// attempts to instruct the judge, which are flagged, never obeyed. An
// answer that fails validation twice gives Verdict needs_review. An error
// means Ollama could not be asked and says what to do.
func (t *Triager) Triage(ctx context.Context, item TriageItem) (TriageVerdict, error) {
	itemType := normalizeType(item.Type)
	text, note := clipInput(StripLabels(item.Text, itemType))
	schema := triageSchemaFor(itemType, t.opts.Types)
	v := TriageVerdict{
		MemoryID:      item.ID,
		Key:           item.Key,
		Type:          item.Type,
		Model:         t.opts.Model,
		PromptVersion: PromptVersion,
		PromptHash:    PromptHash(),
		SchemaHash:    SchemaHash(schema.raw),
		Flags:         DetectInjection(item.Text),
	}
	if note == "" && text != strings.TrimSpace(item.Text) {
		v.Flags = append(v.Flags, FlagLabelsFound)
	}
	system := triageSystemPrompt(itemType, t.opts.Types)
	check := func(f map[string]any) error { return t.checkTriage(itemType, f) }
	a, err := ask(ctx, t.client, t.opts, "triage", system, delimit(text), []string{item.Text}, schema, check)
	if errors.Is(err, ErrBreakerOpen) {
		// The judge failed too often in a row: the item is not judged,
		// and says so; the run goes on and nothing is acted upon.
		v.Verdict, v.NeedsReview = VerdictNeedsReview, true
		v.Reason = "not judged: " + engine.ErrorMessage(err)
		return v, nil
	}
	if err != nil {
		return TriageVerdict{}, err
	}
	v.Digest, v.InputHash, v.Attempts, v.Cached = a.model.Digest, a.key.InputHash, a.attempts, a.cached
	if a.invalid != nil {
		v.Verdict, v.NeedsReview = VerdictNeedsReview, true
		v.Reason = fmt.Sprintf("judge answer rejected twice (%v); needs review", a.invalid)
		return v, nil
	}
	v.Verdict = str(a.fields, "verdict")
	v.Reason = strings.TrimSpace(str(a.fields, "reason") + " " + note)
	v.Confidence = fraction(a.fields, "confidence")
	if v.Verdict == VerdictRetype {
		v.RetypeTo = normalizeType(str(a.fields, "retype_to"))
	}
	if v.Verdict != VerdictEcho && v.Confidence < t.opts.EchoBelow {
		// Ambiguous → echo: quarantine is reversible, a wrong keep is not
		// noticed.
		v.JudgeVerdict = v.Label()
		v.Verdict, v.RetypeTo = VerdictEcho, ""
		v.Flags = append(v.Flags, FlagLowConf)
		v.Reason = fmt.Sprintf("ambiguous (confidence %.2f < %.2f), judge said %s: %s", v.Confidence, t.opts.EchoBelow, v.JudgeVerdict, v.Reason)
	}
	return v, nil
}

// checkTriage adds what the schema cannot say: a retype names a known,
// different label.
func (t *Triager) checkTriage(itemType string, f map[string]any) error {
	if str(f, "verdict") != VerdictRetype {
		return nil
	}
	to := normalizeType(str(f, "retype_to"))
	switch {
	case to == "":
		return fmt.Errorf(`"retype" needs "retype_to"`)
	case to == itemType:
		return fmt.Errorf(`"retype_to" %q is the label under review; answer "keep" instead`, to)
	case !slices.Contains(t.opts.Types, to):
		return fmt.Errorf(`"retype_to" %q is not one of %s`, to, strings.Join(t.opts.Types, ", "))
	}
	return nil
}
