package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/version"
)

// otelStdout is the --otel value that writes the spans to standard output.
const otelStdout = "-"

// reportOut is where a recall command prints its own report: stdout,
// unless --otel - claimed it for the spans, then stderr.
func reportOut(e *env, otelPath string) io.Writer {
	if otelPath == otelStdout {
		return e.stderr
	}
	return e.stdout
}

// writeOTel appends the traces to path (or writes them to stdout for "-")
// as OTLP/JSON: one ExportTraceServiceRequest line per recall, from the
// resource service.name=memtrace with this binary's version, under fresh
// trace and span ids (see docs/inspector.md). The recalls are laid end to
// end on the wall clock, the last ending now.
func writeOTel(e *env, path string, now time.Time, trs ...*engine.Trace) error {
	if path == "" {
		return nil
	}
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
	storeID := ""
	if abs, err := filepath.Abs(e.dbPath); err == nil {
		storeID = "sqlite:" + abs
	}
	write := func(w io.Writer) error {
		for i, tr := range trs {
			spans := inspector.Spans(tr, starts[i], inspector.SpanOptions{StoreID: storeID})
			if err := inspector.WriteRequest(w, inspector.Request(version.String(), spans)); err != nil {
				return err
			}
		}
		return nil
	}
	if path == otelStdout {
		return write(e.stdout)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("write spans: %w (choose a writable --otel FILE, or - for stdout)", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
