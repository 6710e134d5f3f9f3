package ollama

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func TestErrors(t *testing.T) {
	ctx := context.Background()
	triage := func(c *Client, model string) error {
		_, err := NewTriager(c, Options{Model: model}).Triage(ctx, TriageItem{ID: 1, Type: "milestone", Text: "안녕"})
		return err
	}
	wantUnavail := func(t *testing.T, err error, parts ...string) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		if engine.ErrorCode(err) != engine.EUNAVAIL {
			t.Fatalf("code = %s (%v), want %s", engine.ErrorCode(err), err, engine.EUNAVAIL)
		}
		for _, p := range parts {
			if !strings.Contains(engine.ErrorMessage(err), p) {
				t.Errorf("message lacks %q:\n%s", p, engine.ErrorMessage(err))
			}
		}
	}

	t.Run("MissingModel", func(t *testing.T) {
		f := newFakeOllama(t)
		f.show["llama9:70b"] = reply{http.StatusNotFound, "error_model_not_found.json"}
		err := triage(f.client(5*time.Second), "llama9:70b")
		wantUnavail(t, err, "ollama pull llama9:70b", f.srv.URL, "model 'llama9:70b' not found")
		if f.hitCount("/api/chat") != 0 {
			t.Fatal("chatted with a missing model")
		}
	})

	t.Run("ConnectionRefused", func(t *testing.T) {
		f := newFakeOllama(t)
		host := f.url()
		f.srv.Close()
		err := triage(NewClient(ClientConfig{Host: host, Timeout: 5 * time.Second}), testModel)
		wantUnavail(t, err, "connection refused", host.String(), testModel, "ollama serve", "OLLAMA_HOST")
	})

	t.Run("Timeout", func(t *testing.T) {
		f := newFakeOllama(t)
		f.stall = 5 * time.Second
		f.scriptChat("chat_triage_echo.ndjson")
		err := triage(f.client(150*time.Millisecond), testModel)
		wantUnavail(t, err, "did not answer within 150ms", f.srv.URL, testModel)
	})

	t.Run("ServerError", func(t *testing.T) {
		f := newFakeOllama(t)
		f.chat = []reply{{http.StatusInternalServerError, "error_runner_killed.json"}}
		err := triage(f.client(5*time.Second), testModel)
		wantUnavail(t, err, "HTTP 500", "llama runner process has terminated", f.srv.URL, testModel)
	})

	t.Run("ErrorMidStream", func(t *testing.T) {
		f := newFakeOllama(t)
		f.scriptChat("chat_error_midstream.ndjson")
		err := triage(f.client(5*time.Second), testModel)
		wantUnavail(t, err, "unexpected EOF", f.srv.URL, testModel)
	})

	t.Run("StreamCutShortIsInvalidNotFatal", func(t *testing.T) {
		// Ollama ends a 200 stream without done:true when the model repeats
		// one token over 30 times: an invalid answer, retried once with the
		// reason, then needs_review — never an error that stops the run.
		f := newFakeOllama(t)
		f.scriptChat("chat_cut_short.ndjson", "chat_cut_short.ndjson")
		v, err := NewTriager(f.client(5*time.Second), Options{Model: testModel}).Triage(ctx, TriageItem{ID: 3, Text: "오늘 점심 뭐 먹지?", Type: "milestone"})
		if err != nil {
			t.Fatalf("a stream cut short stopped the run: %v", err)
		}
		if v.Verdict != VerdictNeedsReview || !v.NeedsReview || v.Attempts != 2 || !strings.Contains(v.Reason, "without done") {
			t.Fatalf("verdict = %+v, want needs_review after 2 attempts naming the cut stream", v)
		}
		reqs := f.chatRequests()
		if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "ended after") {
			t.Fatalf("the retry did not carry the reason: %+v", reqs)
		}
	})

	t.Run("StreamCutShortThenValid", func(t *testing.T) {
		f := newFakeOllama(t)
		f.scriptChat("chat_cut_short.ndjson", "chat_triage_echo.ndjson")
		v, err := NewTriager(f.client(5*time.Second), Options{Model: testModel}).Triage(ctx, TriageItem{ID: 3, Text: "오늘 점심 뭐 먹지?", Type: "milestone"})
		if err != nil || v.Verdict != VerdictEcho || v.Attempts != 2 || v.Confidence != 0.93 {
			t.Fatalf("verdict = %+v, %v; want the retried echo@0.93", v, err)
		}
	})

	t.Run("CallerCancelled", func(t *testing.T) {
		f := newFakeOllama(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := NewTriager(f.client(5*time.Second), Options{Model: testModel}).Triage(cctx, TriageItem{Text: "x", Type: "milestone"})
		if engine.ErrorCode(err) == engine.EUNAVAIL || !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("err = %v, want the caller's cancellation, not blame on Ollama", err)
		}
	})
}

func TestModelInfo(t *testing.T) {
	f := newFakeOllama(t)
	c := f.client(5 * time.Second)
	mi, err := c.ModelInfo(context.Background(), "nomic-embed-text")
	if err != nil {
		t.Fatal(err)
	}
	// "nomic-embed-text" is listed as "nomic-embed-text:latest".
	if mi.Digest != "0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f" || mi.Family != "nomic-bert" ||
		mi.ParameterSize != "137M" || len(mi.Capabilities) != 1 || mi.Capabilities[0] != "embedding" {
		t.Fatalf("model info = %+v", mi)
	}
}

// TestBreakerOnErrors: five failed calls in a row (here HTTP 500) trip the
// breaker: one notice with the count, then no more requests.
func TestBreakerOnErrors(t *testing.T) {
	f := newFakeOllama(t)
	for range 5 {
		f.chat = append(f.chat, reply{http.StatusInternalServerError, "error_runner_killed.json"})
	}
	var notes []string
	c := NewClient(ClientConfig{Host: f.url(), Timeout: 5 * time.Second, Notify: func(m string) { notes = append(notes, m) }})
	j := NewCaptureJudge(c, Options{Model: testModel})
	for i := range 8 {
		_, err := j.JudgeCapture(context.Background(), captureIn("I am allergic to peanuts."))
		if err == nil {
			t.Fatalf("call %d: no error", i)
		}
		if open := errors.Is(err, ErrBreakerOpen); open != (i >= 5) {
			t.Fatalf("call %d: breaker open = %v (%v)", i, open, err)
		}
	}
	if f.hitCount("/api/chat") != 5 || len(notes) != 1 || !strings.Contains(notes[0], "5 calls in a row") || !strings.Contains(notes[0], "HTTP 500") {
		t.Fatalf("%d chats, notices %q", f.hitCount("/api/chat"), notes)
	}
	if open, msg := c.Tripped(); !open || msg != notes[0] {
		t.Fatalf("Tripped = %v %q", open, msg)
	}
}

func TestHostFromEnv(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{"gpu-box", "http://gpu-box:11434"},
		{"gpu-box:9999", "http://gpu-box:9999"},
		{"http://gpu-box", "http://gpu-box:80"},
		{"https://ollama.example", "https://ollama.example:443"},
		{`"10.0.0.5:11435"`, "http://10.0.0.5:11435"},
	} {
		t.Setenv("OLLAMA_HOST", tc.env)
		if got := HostFromEnv().String(); got != tc.want {
			t.Errorf("OLLAMA_HOST=%q → %s, want %s", tc.env, got, tc.want)
		}
		if got := NewClient(ClientConfig{}).Host(); got != tc.want {
			t.Errorf("client host with OLLAMA_HOST=%q = %s, want %s", tc.env, got, tc.want)
		}
	}
}
