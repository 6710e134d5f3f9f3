// Package otlptest is a loopback OTLP/HTTP trace receiver for tests: an
// httptest server that decodes every request body with the OpenTelemetry
// Collector's own OTLP decoder (pdata's ptraceotlp, protobuf or JSON as
// the Content-Type says, gunzipped when Content-Encoding is gzip), and can
// answer a scripted status first (a 503 with Retry-After) or answer slowly.
package otlptest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// Request is one request the receiver decoded.
type Request struct {
	Path, ContentType, ContentEncoding string
	Header                             http.Header
	Status                             int // what the receiver answered
	Traces                             ptrace.Traces
	Err                                error // the decoder's, if it failed
}

// Receiver is a running loopback receiver.
type Receiver struct {
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
	refuse   int           // answer this many requests with status first
	status   int           // the refusal's status
	after    int           // its Retry-After in seconds (0: none)
	delay    time.Duration // wait this long before answering
}

// New starts a receiver that accepts everything; the test closes it.
func New(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL
	t.Cleanup(r.srv.Close)
	return r
}

// Refuse makes the next n requests fail with status (e.g. 503) and a
// Retry-After of retryAfter seconds when it is positive.
func (r *Receiver) Refuse(n, status, retryAfter int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refuse, r.status, r.after = n, status, retryAfter
}

// Slow makes every answer wait d first (a collector that does not keep up).
func (r *Receiver) Slow(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.delay = d
}

func (r *Receiver) serve(w http.ResponseWriter, hr *http.Request) {
	r.mu.Lock()
	delay := r.delay
	r.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-hr.Context().Done():
			return
		}
	}
	got := Request{Path: hr.URL.Path, ContentType: hr.Header.Get("Content-Type"),
		ContentEncoding: hr.Header.Get("Content-Encoding"), Header: hr.Header.Clone(), Status: http.StatusOK}
	body, err := io.ReadAll(hr.Body)
	if err == nil && got.ContentEncoding == "gzip" {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
			body, err = io.ReadAll(zr)
		}
	}
	req := ptraceotlp.NewExportRequest()
	if err == nil {
		if got.ContentType == "application/json" {
			err = req.UnmarshalJSON(body)
		} else {
			err = req.UnmarshalProto(body)
		}
	}
	got.Traces, got.Err = req.Traces(), err
	r.mu.Lock()
	if r.refuse > 0 {
		r.refuse--
		got.Status = r.status
		if r.after > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(r.after))
		}
	}
	r.requests = append(r.requests, got)
	r.mu.Unlock()
	if got.Status != http.StatusOK {
		http.Error(w, "collector is busy", got.Status)
		return
	}
	out, _ := ptraceotlp.NewExportResponse().MarshalProto()
	if got.ContentType == "application/json" {
		out, _ = ptraceotlp.NewExportResponse().MarshalJSON()
	}
	w.Header().Set("Content-Type", got.ContentType)
	_, _ = w.Write(out)
}

// Requests returns the requests received so far.
func (r *Receiver) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.requests...)
}

// Accepted returns the spans of every request the receiver accepted
// (answered 200 and decoded), in arrival order.
func (r *Receiver) Accepted() []ptrace.Span {
	var spans []ptrace.Span
	for _, q := range r.Requests() {
		if q.Status != http.StatusOK || q.Err != nil {
			continue
		}
		spans = append(spans, Spans(q.Traces)...)
	}
	return spans
}

// Spans lists the spans of decoded traces, resource by resource.
func Spans(td ptrace.Traces) []ptrace.Span {
	var spans []ptrace.Span
	for i := 0; i < td.ResourceSpans().Len(); i++ {
		ss := td.ResourceSpans().At(i).ScopeSpans()
		for j := 0; j < ss.Len(); j++ {
			s := ss.At(j).Spans()
			for k := 0; k < s.Len(); k++ {
				spans = append(spans, s.At(k))
			}
		}
	}
	return spans
}
