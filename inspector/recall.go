package inspector

import (
	"context"
	"time"

	"memtrace/engine"
	"memtrace/recall"
)

// Recall runs q through the engine's recall pipeline read-only, whatever
// q.ReadOnly says: no access is recorded, no boost is given, nothing is
// written to the store. A zero q.At is the engine clock.
func Recall(ctx context.Context, e *engine.Engine, q engine.Query) (*engine.Trace, error) {
	q.ReadOnly = true
	tr, err := recall.Recall(ctx, e, q)
	if err != nil {
		return nil, err
	}
	if !tr.ReadOnly {
		// The engine reports the mode it ran in; a committed run here would
		// be a broken engine contract, and saying so beats a silent write.
		return nil, engine.Errorf(engine.EINTERNAL, "inspector: the engine ran a committed recall for a read-only query")
	}
	return tr, nil
}

// At reads a time override relative to the engine clock: "now", an offset
// such as "+30d" or "-2h", a date, or an RFC 3339 time (see engine.ParseAt).
func At(e *engine.Engine, s string) (time.Time, error) {
	return engine.ParseAt(s, e.Now())
}
