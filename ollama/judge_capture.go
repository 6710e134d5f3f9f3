package ollama

import (
	"context"
	"fmt"
	"strings"

	"memtrace/engine"
)

// CaptureJudge is the L3 layer of the capture pipeline on Ollama: store or
// skip, kind, type and importance for a message that passed L1 and L2.
type CaptureJudge struct {
	client *Client
	opts   Options
}

var _ engine.Judge = (*CaptureJudge)(nil)

// NewCaptureJudge returns a capture judge using client and o.Model.
func NewCaptureJudge(client *Client, o Options) *CaptureJudge {
	return &CaptureJudge{client: client, opts: o.withDefaults()}
}

// Name is "ollama:<model>".
func (j *CaptureJudge) Name() string { return "ollama:" + j.opts.Model }

// Model is the model name the judge asks.
func (j *CaptureJudge) Model() string { return j.opts.Model }

// JudgeCapture asks the model about one message. An answer that fails
// validation twice comes back with NeedsReview set and Store false; the
// engine must not act on it. An error means Ollama could not be asked
// (down, slow, model missing) and says what to do.
func (j *CaptureJudge) JudgeCapture(ctx context.Context, in engine.CaptureInput) (engine.CaptureVerdict, error) {
	switch role := strings.ToLower(strings.TrimSpace(in.Role)); role {
	case "tool", "system":
		// Tool and system output is never a memory, and never reaches the
		// model: a model told "Message role: tool" may still say store.
		return engine.CaptureVerdict{
			Reason: "rules: " + role + " output is never sent to the judge and never stored",
			Source: "rules",
		}, nil
	}
	system := captureSystemPrompt(in.Detail, j.opts.Types)
	texts := []string{in.Text} // for the cache entry, before the clip
	for _, c := range in.Candidates {
		texts = append(texts, c.Text)
	}
	text, note := clipInput(in.Text)
	in.Text = text
	schema, check := captureSchemaFor(j.opts.Types), checkCapture
	var labels []string
	if len(in.Candidates) > 0 {
		for _, c := range in.Candidates {
			labels = append(labels, c.Label)
		}
		system += updatesGuidance
		schema, check = captureSchemaWithUpdates(j.opts.Types, labels), checkCaptureUpdates
	}
	a, err := ask(ctx, j.client, j.opts, "capture", system, captureUser(in), texts, schema, check)
	if err != nil {
		return engine.CaptureVerdict{}, err
	}
	source := "judge:" + j.opts.Model
	if a.invalid != nil {
		return engine.CaptureVerdict{
			Reason:      fmt.Sprintf("judge answer rejected twice (%v); needs review", a.invalid),
			NeedsReview: true,
			Source:      source,
		}, nil
	}
	v := engine.CaptureVerdict{
		Store:      a.fields["store"].(bool),
		Kind:       engine.Kind(str(a.fields, "kind")),
		Type:       normalizeType(str(a.fields, "type")),
		Importance: fraction(a.fields, "importance"),
		Reason:     strings.TrimSpace(str(a.fields, "reason") + " " + note),
		Source:     source,
	}
	if u, ok := a.fields["updates"].([]any); ok && len(labels) > 0 {
		v.Updates = []string{} // present: the judge decides, [] is "none"
		for _, x := range u {
			v.Updates = append(v.Updates, x.(string))
		}
	}
	if flags := DetectInjection(in.Text); len(flags) > 0 {
		// The judge saw the text only as data; the flag makes the attempt
		// visible in the captures log whatever the model decided.
		v.Reason = strings.TrimSpace(v.Reason + " [flag: " + strings.Join(flags, ",") + "]")
	}
	return v, nil
}

func captureUser(in engine.CaptureInput) string {
	var b strings.Builder
	role := in.Role
	if role == "" {
		role = "user"
	}
	fmt.Fprintf(&b, "Message role: %s\n", oneLine(role))
	if in.Project != "" {
		fmt.Fprintf(&b, "Project: %s\n", oneLine(in.Project))
	}
	b.WriteString(delimit(in.Text))
	if len(in.Candidates) > 0 {
		b.WriteString("\n\nStored memories this message may update:\n")
		for _, c := range in.Candidates {
			b.WriteString(delimitCandidate(c.Label, c.At.UTC().Format("2006-01-02"), c.Text) + "\n")
		}
	}
	return b.String()
}

// checkCapture adds what the schema cannot say: a stored memory needs a
// label.
func checkCapture(f map[string]any) error {
	if f["store"].(bool) && normalizeType(str(f, "type")) == "" {
		return fmt.Errorf(`"type" is empty although "store" is true`)
	}
	return nil
}

// checkCaptureUpdates is checkCapture for an answer that may name updates
// (the schema checked the labels): a skipped message updates nothing.
func checkCaptureUpdates(f map[string]any) error {
	if err := checkCapture(f); err != nil {
		return err
	}
	if u, ok := f["updates"].([]any); ok && len(u) > 0 && !f["store"].(bool) {
		return fmt.Errorf(`"updates" names %d stored memories although "store" is false`, len(u))
	}
	return nil
}

// normalizeType makes "Current Project" and "current-project" the label
// current_project.
func normalizeType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	return strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_")
}

// oneLine escapes and flattens a short untrusted field (role, project).
func oneLine(s string) string {
	s = dataEscaper.Replace(strings.Join(strings.Fields(s), " "))
	return clip(s, 80)
}
