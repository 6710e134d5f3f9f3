package capture

import (
	"context"
	"strings"

	"memtrace/engine"
)

// Correct records an explicit correction: the sender (memory_correct, an
// agent that was corrected) says the message is one, so no lesson marker
// is needed and the length floors do not apply. It always yields a lesson,
// counted under the canonical key (see lessonkey.go), or an EINVALID error
// that says why not: a one-off or context-bound instruction, a text with
// no content words, or a message the noise filters drop (a heartbeat is
// not a correction). The message also goes through the capture pipeline
// as a user message, which may store it as a memory.
func Correct(ctx context.Context, e *engine.Engine, m engine.Message) (*engine.CaptureResult, error) {
	m.Correction = true
	m.Text, _ = RedactSecrets(m.Text) // its error messages quote the text
	if m.Role == "" {
		m.Role = "user"
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, engine.Errorf(engine.EINVALID, "the correction is empty: pass what the user said")
	}
	f := detectLesson(m.Text, true)
	switch {
	case f.Skip == skipMemoryRequest:
		return nil, engine.Errorf(engine.EINVALID, "%q asks to remember a fact (%q), not how to work, so it is not counted as a lesson; use memory_capture to store it",
			m.Text, f.Marker)
	case f.Skip != "":
		return nil, engine.Errorf(engine.EINVALID, "%q is a %s instruction (%q): it holds only here or now, so it is not counted as a lesson; use memory_capture if it is worth remembering",
			m.Text, strings.ReplaceAll(f.Skip, "_", "-"), f.Marker)
	case f.NoTerms:
		return nil, engine.Errorf(engine.EINVALID, "%q names nothing to key a lesson by: pass the correction as the user said it, with what to do or not to do (\"don't use tabs\")", m.Text)
	}
	if m.At.IsZero() {
		m.At = e.Now()
	}
	res, err := Capture(ctx, e, m)
	if err != nil {
		return nil, err
	}
	if res.Correction == nil {
		if res.Outcome == OutcomeSkipped {
			return nil, engine.Errorf(engine.EINVALID, "this message (id %s) was offered before; its lesson was counted then", res.MessageID)
		}
		return nil, engine.Errorf(engine.EINVALID, "%q was dropped by %s rule %s, so no lesson was recorded: it reads as noise, not as a correction", m.Text, res.DroppedBy, res.Reason)
	}
	return res, nil
}
