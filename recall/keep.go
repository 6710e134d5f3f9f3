package recall

import (
	"context"
	"encoding/json"
	"fmt"

	"memtrace/engine"
)

// Keep stores tr, the trace of a recall made for query in session, as
// source (the MCP server keeps every recall it answers, so the TUI's
// Trace tab can show why the agent saw what it saw), keeping the newest
// keep traces. It sets and returns the stored trace's id.
func Keep(ctx context.Context, e *engine.Engine, tr *engine.Trace, query, session, source string, keep int) (*engine.StoredTrace, error) {
	raw, err := json.Marshal(tr)
	if err != nil {
		return nil, fmt.Errorf("encode trace: %w", err)
	}
	st := &engine.StoredTrace{Query: query, Session: session, Source: source, At: tr.At, Trace: raw}
	if err := e.Store().SaveTrace(ctx, st, keep); err != nil {
		return nil, fmt.Errorf("store the trace: %w", err)
	}
	return st, nil
}
