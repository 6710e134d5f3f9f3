package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/capture"
)

// ReflectIn is the input of memory_reflect.
type ReflectIn struct {
	Intended string `json:"intended" jsonschema:"what you meant to do or expected to happen"`
	Actual   string `json:"actual" jsonschema:"what actually happened"`
	Lesson   string `json:"lesson,omitempty" jsonschema:"what to do differently next time (default: the actual outcome)"`
	Session  string `json:"session,omitempty" jsonschema:"the session the task belonged to"`
	Project  string `json:"project,omitempty" jsonschema:"the project the lesson is about; a promoted rule is scoped to it"`
}

// reflection files a self-reflection through (*engine.Engine).Reflect: a
// lesson counted among the corrections under a "reflection:" key, which a
// heartbeat proposes for promotion once it was reflected three times.
func (s *Server) reflection(ctx context.Context, _ *mcp.CallToolRequest, in ReflectIn) (*mcp.CallToolResult, LessonOut, error) {
	if strings.TrimSpace(in.Intended) == "" || strings.TrimSpace(in.Actual) == "" {
		return nil, LessonOut{}, fmt.Errorf("pass both intended (what you meant to do) and actual (what happened)")
	}
	if err := s.refresh(ctx); err != nil {
		return nil, LessonOut{}, err
	}
	c, err := capture.Reflect(ctx, s.e, capture.Reflection{Intended: in.Intended, Actual: in.Actual, Lesson: in.Lesson,
		Session: in.Session, Project: in.Project, At: s.e.Now()})
	if err != nil {
		return nil, LessonOut{}, toolError(err)
	}
	return nil, LessonOut{Key: c.LessonKey, Lesson: c.Lesson, Count: c.Count, Status: c.Status}, nil
}
