package mcpserver

import (
	"context"
	"fmt"

	"memtrace/capture"
	"memtrace/engine"
)

// recordCorrection records an explicit correction (engine.Correct: a
// lesson always, or an error saying why not) and, when this is the
// lesson's first sighting, keeps the agent's description of what was
// corrected as the lesson's context (in place of the session name the
// pipeline records).
func (s *Server) recordCorrection(ctx context.Context, in CorrectIn) (*engine.CaptureResult, error) {
	res, err := capture.Correct(ctx, s.e, engine.Message{Role: "user", Text: in.Text, At: s.e.Now(), Session: in.Session, Project: in.Project})
	if err != nil {
		return nil, err
	}
	c := res.Correction
	if c == nil || in.Context == "" || c.Count != 1 {
		return res, nil
	}
	err = s.e.Update(ctx, func(q engine.Queries) error {
		cur, err := q.GetCorrection(ctx, c.LessonKey)
		if err != nil {
			return err
		}
		if cur.Count != 1 {
			return nil
		}
		cur.Context = in.Context
		if err := q.SaveCorrection(ctx, cur); err != nil {
			return err
		}
		res.Correction = cur
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("keep the correction's context: %w", err)
	}
	return res, nil
}
