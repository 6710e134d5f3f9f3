package cli

import (
	"fmt"
	"os"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
)

// writeOTel writes the traces as OpenTelemetry-style spans, one JSON object
// a line, to path (see docs/inspector.md). The recalls are laid end to end
// on the wall clock, the last ending now; their span ids depend only on
// the query and its time, so two exports of one recall match.
func writeOTel(path string, now time.Time, trs ...*engine.Trace) error {
	starts := make([]time.Time, len(trs))
	end := now
	for i := len(trs) - 1; i >= 0; i-- {
		var took float64
		for _, st := range trs[i].Stages {
			took += st.TookMS
		}
		end = end.Add(-time.Duration(took * float64(time.Millisecond)))
		starts[i] = end
	}
	var spans []inspector.Span
	for i, tr := range trs {
		spans = append(spans, inspector.Spans(tr, starts[i])...)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write spans: %w (choose a writable --otel FILE)", err)
	}
	if err := inspector.WriteSpans(f, spans); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// recallOTel is the `recall --otel FILE` hook: a no-op without a path.
func recallOTel(path string, tr *engine.Trace) error {
	if path == "" {
		return nil
	}
	return writeOTel(path, time.Now(), tr)
}
