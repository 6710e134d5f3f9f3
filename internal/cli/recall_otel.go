package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/version"
	"memtrace/store"
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

// otelFlags are --otel and --otlp-endpoint, which recall and compare share.
type otelFlags struct{ file, endpoint *string }

func addOTelFlags(fs *flag.FlagSet, what string) otelFlags {
	return otelFlags{
		file:     fs.String("otel", "", "also append "+what+" as OTLP/JSON spans (one ExportTraceServiceRequest a line) to `FILE`; - writes them to stdout and the report to stderr"),
		endpoint: fs.String("otlp-endpoint", "", "also send "+what+" over OTLP/HTTP (JSON) to the collector at `URL`, e.g. http://localhost:4318 (/v1/traces is added when the URL has no path)"),
	}
}

// export writes and sends the traces as --otel and --otlp-endpoint ask.
func (o otelFlags) export(e *env, trs ...*engine.Trace) error {
	if *o.file == "" && *o.endpoint == "" {
		return nil
	}
	reqs := otelRequests(e, time.Now(), trs...)
	if *o.file != "" {
		if err := writeOTel(e, *o.file, reqs); err != nil {
			return err
		}
		if *o.file != otelStdout {
			recordArtifact(e, engine.ArtifactOTel, *o.file)
		}
	}
	if *o.endpoint != "" {
		if err := postOTLP(e.ctx, *o.endpoint, reqs); err != nil {
			return err
		}
	}
	return nil
}

// otelRequests turns the traces into OTLP/JSON export requests, one per
// recall, from the resource service.name=memtrace with this binary's
// version, under fresh trace and span ids (see docs/inspector.md). The
// recalls are laid end to end on the wall clock, the last ending now.
func otelRequests(e *env, now time.Time, trs ...*engine.Trace) []inspector.ExportTraceServiceRequest {
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
	if store.IsDSN(e.dbPath) {
		storeID = "postgres:" + store.RedactDSN(e.dbPath)
	} else if abs, err := filepath.Abs(e.dbPath); err == nil {
		storeID = "sqlite:" + abs
	}
	reqs := make([]inspector.ExportTraceServiceRequest, len(trs))
	for i, tr := range trs {
		reqs[i] = inspector.Request(version.String(), inspector.Spans(tr, starts[i], inspector.SpanOptions{StoreID: storeID}))
	}
	return reqs
}

// writeOTel appends the requests to path, one line each, or writes them
// to stdout for "-".
func writeOTel(e *env, path string, reqs []inspector.ExportTraceServiceRequest) error {
	write := func(w io.Writer) error {
		for _, r := range reqs {
			if err := inspector.WriteRequest(w, r); err != nil {
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

// postOTLP sends each request to a collector over OTLP/HTTP with the JSON
// encoding (POST {endpoint}/v1/traces, Content-Type application/json).
func postOTLP(ctx context.Context, endpoint string, reqs []inspector.ExportTraceServiceRequest) error {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError{fmt.Sprintf("--otlp-endpoint %q: give the collector's URL, e.g. http://localhost:4318", endpoint)}
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, r := range reqs {
		var body bytes.Buffer
		if err := inspector.WriteRequest(&body, r); err != nil {
			return err
		}
		hr, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), &body)
		if err != nil {
			return fmt.Errorf("send spans: %w", err)
		}
		hr.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(hr)
		if err != nil {
			return fmt.Errorf("send spans to %s: %w (is the collector running?)", u, err)
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("send spans to %s: %s %s", u, resp.Status, strings.TrimSpace(string(msg)))
		}
	}
	return nil
}
