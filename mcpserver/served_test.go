package mcpserver

import (
	"testing"

	"memtrace/engine"
)

// serverOf is the server of an engine the test already opened, ready
// (NewOpening with nothing left to open).
func serverOf(t *testing.T, e *engine.Engine, o Options) *Server {
	t.Helper()
	s := NewOpening(func() (*engine.Engine, error) { return e, nil }, o)
	if err := s.Opened(); err != nil {
		t.Fatal(err)
	}
	return s
}
