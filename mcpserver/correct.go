package mcpserver

import (
	"context"

	"memtrace/capture"
	"memtrace/engine"
)

// recordCorrection records an explicit correction (capture.Correct: a
// lesson always, or an error saying why not) in one transaction; when this
// is the lesson's first sighting, the lesson keeps the agent's description
// of what was corrected as its context (in place of the session name the
// pipeline records).
func (s *Server) recordCorrection(ctx context.Context, in CorrectIn) (*engine.CaptureResult, error) {
	return capture.Correct(ctx, s.e, engine.Message{Role: "user", Text: in.Text, At: s.e.Now(), Session: in.Session, Project: in.Project,
		LessonContext: in.Context})
}
