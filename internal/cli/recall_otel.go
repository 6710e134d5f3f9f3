package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"memtrace/internal/outfile"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/safetext"
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

// otelFlags are --otel, --otlp-endpoint and --otel-content, which recall
// and compare share (mcp takes the last two: otlpFlags).
type otelFlags struct {
	file *string
	otlpFlags
}

func addOTelFlags(fs *flag.FlagSet, what string) otelFlags {
	return otelFlags{
		file:      fs.String("otel", "", "also append "+what+" as OTLP/JSON spans (one ExportTraceServiceRequest a line) to `FILE`; - writes them to stdout and the report to stderr"),
		otlpFlags: withFile(addOTLPFlags(fs, what)),
	}
}

func withFile(o otlpFlags) otlpFlags { o.hasFile = true; return o }

// otlpFlags are --otlp-endpoint and --otel-content.
type otlpFlags struct {
	endpoint *string
	content  *bool
	hasFile  bool // the command has --otel FILE too
}

func addOTLPFlags(fs *flag.FlagSet, what string) otlpFlags {
	return otlpFlags{
		endpoint: fs.String("otlp-endpoint", "", "also send "+what+" over OTLP/HTTP (protobuf; OTEL_EXPORTER_OTLP_PROTOCOL=http/json for JSON) to the collector at `URL`, e.g. http://localhost:4318 (/v1/traces is added when the URL has no path); OTEL_EXPORTER_OTLP_ENDPOINT turns it on too"),
		content:  fs.Bool("otel-content", false, "put the query text and the recalled memories' texts into the spans (off by default, as the GenAI conventions ask; "+inspector.EnvCaptureContent+"=true does the same)"),
	}
}

// check refuses --otel-content when no span leaves the process: no
// --otlp-endpoint and no OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT (file says
// whether --otel FILE writes some).
func (o otlpFlags) check(file bool) error {
	if !*o.content || file || inspector.ExportEnabled(*o.endpoint) {
		return nil
	}
	to := "--otlp-endpoint URL (or OTEL_EXPORTER_OTLP_ENDPOINT)"
	if o.hasFile {
		to = "--otel FILE or " + to
	}
	return usageError{"--otel-content puts texts into the exported spans, and none are exported: add " + to + ", or leave --otel-content out"}
}

// check is otlpFlags.check with --otel FILE.
func (o otelFlags) check() error { return o.otlpFlags.check(*o.file != "") }

// spanOptions are the options of every span a command exports: the
// store's stable id and the content switch.
func (o otlpFlags) spanOptions(e *env) inspector.SpanOptions {
	return inspector.SpanOptions{StoreID: storeID(e), Content: *o.content || inspector.CaptureContent()}
}

// exporter starts the SDK exporter when --otlp-endpoint or the
// OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT environment asks for one; nil
// otherwise, and then nothing of the SDK is set up.
func (o otlpFlags) exporter(e *env, onError func(error)) (*inspector.Exporter, error) {
	if !inspector.ExportEnabled(*o.endpoint) {
		return nil, nil
	}
	if *o.endpoint != "" {
		if _, err := inspector.TracesURL(*o.endpoint); err != nil {
			return nil, usageError{err.Error()}
		}
	}
	return inspector.NewExporter(e.ctx, inspector.ExporterOptions{Endpoint: *o.endpoint, Version: version.String(), OnError: onError})
}

// shutdownExporter flushes x within the flush timeout and says on stderr
// what did not arrive. Telemetry never fails the command: the recall has
// been made and printed.
func shutdownExporter(e *env, x *inspector.Exporter, who string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), inspector.FlushTimeout())
	defer cancel()
	r := x.Shutdown(ctx)
	if r.Dropped() == 0 {
		return
	}
	reason := "not accepted"
	if r.Err != nil {
		reason = safetext.SanitizeLine(r.Err.Error())
	}
	fmt.Fprintf(e.stderr, "%s: telemetry: %d of %d spans not delivered to %s (%s); check the collector, or raise %s (ms, default %d)\n",
		who, r.Dropped(), r.Spans, r.Target, reason, "OTEL_BSP_EXPORT_TIMEOUT", inspector.DefaultFlushTimeout.Milliseconds())
}

// export writes the traces to --otel and queues them for the collector
// (--otlp-endpoint or the environment). The returned func sends what is
// queued and reports what was dropped: call it when the command's own
// output is written, so that a slow collector delays nothing but the exit.
func (o otelFlags) export(e *env, trs ...*engine.Trace) (func(), error) {
	done := func() {}
	x, err := o.exporter(e, nil)
	if err != nil {
		return done, err
	}
	if *o.file == "" && x == nil {
		return done, nil
	}
	opts := o.spanOptions(e)
	starts := recallStarts(time.Now(), trs...)
	if *o.file != "" {
		reqs := make([]inspector.ExportTraceServiceRequest, len(trs))
		for i, tr := range trs {
			reqs[i] = inspector.Request(version.String(), inspector.Spans(tr, starts[i], opts))
		}
		if err := writeOTel(e, *o.file, reqs); err != nil {
			if x != nil {
				shutdownExporter(e, x, "memtrace")
			}
			return done, err
		}
		if *o.file != otelStdout {
			recordArtifact(e, engine.ArtifactOTel, *o.file)
		}
	}
	if x != nil {
		for i, tr := range trs {
			x.Record(tr, starts[i], opts, nil)
		}
		done = func() { shutdownExporter(e, x, "memtrace") }
	}
	return done, nil
}

// recallStarts lays the recalls end to end on the wall clock, the last
// ending now, and returns when each began.
func recallStarts(now time.Time, trs ...*engine.Trace) []time.Time {
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
	return starts
}

// storeID is gen_ai.memory.store.id for --db: a hash of the database's
// identity (the SQLite file's absolute path, or the DSN without its
// password), never the path itself.
func storeID(e *env) string {
	if store.IsDSN(e.dbPath) {
		return inspector.StoreID("postgres:" + store.RedactDSN(e.dbPath))
	}
	abs, err := filepath.Abs(e.dbPath)
	if err != nil {
		abs = e.dbPath
	}
	return inspector.StoreID("sqlite:" + abs)
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
	f, err := outfile.Append(path, outfile.Private)
	if err != nil {
		return fmt.Errorf("write spans: %w (choose a writable --otel FILE, or - for stdout)", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
