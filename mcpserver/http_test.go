package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

// serveHTTP starts memtrace's HTTP transport on a loopback port, as
// `memtrace mcp --http` does, and returns its URL.
func serveHTTP(t *testing.T, o HTTPOptions) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "http.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := LoopbackListener("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	srv := serverOf(t, e, Options{})
	go func() { done <- srv.ServeHTTP(ctx, ln, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
		db.Close()
	})
	return "http://" + ln.Addr().String() + HTTPPath
}

// rpcReply is one HTTP answer: the status, the headers and the JSON-RPC
// messages of its body (a JSON body or the data of an event stream).
type rpcReply struct {
	status int
	header http.Header
	body   string
	msgs   []map[string]json.RawMessage
}

func post(t *testing.T, url string, hdr map[string]string, body string) rpcReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := rpcReply{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	var datas []string
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, l := range strings.Split(string(raw), "\n") {
			if d, ok := strings.CutPrefix(l, "data: "); ok {
				datas = append(datas, d)
			}
		}
	} else if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		datas = []string{string(raw)}
	}
	for _, d := range datas {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("answer %q: %v", d, err)
		}
		r.msgs = append(r.msgs, m)
	}
	return r
}

const initBody = `{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// initSession initialises a session and returns its id.
func initSession(t *testing.T, url string, hdr map[string]string) string {
	t.Helper()
	r := post(t, url, hdr, fmt.Sprintf(initBody, "1"))
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %q", r.status, r.body)
	}
	h := map[string]string{"Mcp-Session-Id": sid}
	for k, v := range hdr {
		h[k] = v
	}
	if r := post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
		t.Fatalf("initialized: %d %q", r.status, r.body)
	}
	return sid
}

func rpcErrorCode(t *testing.T, m map[string]json.RawMessage) int64 {
	t.Helper()
	var e struct {
		Code int64 `json:"code"`
	}
	if err := json.Unmarshal(m["error"], &e); err != nil {
		t.Fatalf("no JSON-RPC error in %v", m)
	}
	return e.Code
}

// TestHTTPSessionRequired: after initialize every POST names its session;
// a missing one is 400 with a JSON-RPC error, an unknown one 404.
func TestHTTPSessionRequired(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{})
	r := post(t, url, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"x"}}}`)
	if r.status != http.StatusBadRequest || len(r.msgs) != 1 || rpcErrorCode(t, r.msgs[0]) != -32600 || string(r.msgs[0]["id"]) != "1" ||
		!strings.Contains(r.body, "Mcp-Session-Id") {
		t.Fatalf("tools/call without a session: %d %q", r.status, r.body)
	}
	if r := post(t, url, nil, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); r.status != http.StatusBadRequest {
		t.Fatalf("ping without a session: %d %q", r.status, r.body)
	}
	sid := initSession(t, url, nil)
	r = post(t, url, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if r.status != http.StatusOK || len(r.msgs) != 1 || !strings.Contains(string(r.msgs[0]["result"]), ToolRecall) {
		t.Fatalf("tools/list in the session: %d %q", r.status, r.body)
	}
	if r := post(t, url, map[string]string{"Mcp-Session-Id": "no-such-session"}, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); r.status != http.StatusNotFound {
		t.Fatalf("unknown session: %d %q", r.status, r.body)
	}
}

// TestHTTPOrigin: a browser page on another origin is refused; loopback
// origins and the configured ones are served.
func TestHTTPOrigin(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Origins: []string{"https://inspector.example:6274"}})
	for origin, want := range map[string]int{
		"http://evil.example":            http.StatusForbidden,
		"http://localhost.evil.example":  http.StatusForbidden,
		"null":                           http.StatusForbidden,
		"https://inspector.example:6275": http.StatusForbidden,
		"http://localhost:6274":          http.StatusOK,
		"http://127.0.0.1:3000":          http.StatusOK,
		"http://[::1]:3000":              http.StatusOK,
		"https://inspector.example:6274": http.StatusOK,
	} {
		r := post(t, url, map[string]string{"Origin": origin}, fmt.Sprintf(initBody, "1"))
		if r.status != want {
			t.Errorf("Origin %s: %d %q, want %d", origin, r.status, r.body, want)
		}
	}
}

// TestHTTPBearerToken: with a token every request must carry it.
func TestHTTPBearerToken(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{Token: "s3cret-token"})
	for name, hdr := range map[string]map[string]string{
		"none":   nil,
		"wrong":  {"Authorization": "Bearer s3cret-tokem"},
		"prefix": {"Authorization": "Bearer s3cret"},
		"basic":  {"Authorization": "Basic s3cret-token"},
	} {
		r := post(t, url, hdr, fmt.Sprintf(initBody, "1"))
		if r.status != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d %q %v", name, r.status, r.body, r.header)
		}
	}
	auth := map[string]string{"Authorization": "Bearer s3cret-token"}
	sid := initSession(t, url, auth)
	r := post(t, url, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if r.status != http.StatusUnauthorized {
		t.Fatalf("a session id is no token: %d", r.status)
	}
}

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "token")
	if err := os.WriteFile(p, []byte("abc123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTokenFile(p); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable token file: %v", err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if tok, err := ReadTokenFile(p); err != nil || tok != "abc123" {
		t.Fatalf("token %q, %v", tok, err)
	}
	if err := os.WriteFile(p, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTokenFile(p); err == nil {
		t.Fatal("an empty token file was accepted")
	}
	if _, err := ReadTokenFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing token file was accepted")
	}
}

// TestHTTPIDsEchoedExactly: the answer carries the id as the client sent
// it; "id": null is refused with -32600 and id null.
func TestHTTPIDsEchoedExactly(t *testing.T) {
	url := serveHTTP(t, HTTPOptions{})
	r := post(t, url, nil, fmt.Sprintf(initBody, "11.5"))
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK || len(r.msgs) != 1 || string(r.msgs[0]["id"]) != "11.5" || sid == "" {
		t.Fatalf("initialize with id 11.5: %d %q", r.status, r.body)
	}
	h := map[string]string{"Mcp-Session-Id": sid}
	post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range []string{`9007199254740993`, `-9007199254740995`, `1.5`, `1e3`, `7`, `"abc"`, `"memtrace-id-1"`, `"11.5"`} {
		r := post(t, url, h, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/list"}`)
		if r.status != http.StatusOK || len(r.msgs) != 1 || string(r.msgs[0]["id"]) != id || r.msgs[0]["result"] == nil {
			t.Errorf("id %s: %d %q", id, r.status, r.body)
		}
	}
	r = post(t, url, h, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`)
	if r.status != http.StatusBadRequest || len(r.msgs) != 1 || string(r.msgs[0]["id"]) != "null" || rpcErrorCode(t, r.msgs[0]) != -32600 {
		t.Fatalf("id null: %d %q", r.status, r.body)
	}
}

// TestHTTPShedsSlowBodies: connections that send headers and then a body
// byte by byte never are all closed within the body timeout, past the
// connection cap at once.
func TestHTTPShedsSlowBodies(t *testing.T) {
	const conns, limit, timeout = 200, 50, 500 * time.Millisecond
	url := serveHTTP(t, HTTPOptions{BodyTimeout: timeout, HeaderTimeout: timeout, MaxConns: limit})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), HTTPPath)
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[string]int{}
	var held []string
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				mu.Lock()
				held = append(held, fmt.Sprintf("conn %d: dial: %v", i, err))
				mu.Unlock()
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", HTTPPath, addr)
			_ = c.SetReadDeadline(time.Now().Add(timeout + 3*time.Second))
			status, _ := bufio.NewReader(c).ReadString('\n')
			_, err = io.Copy(io.Discard, c) // until the server closes it
			mu.Lock()
			defer mu.Unlock()
			if ne := (net.Error)(nil); errors.As(err, &ne) && ne.Timeout() {
				held = append(held, fmt.Sprintf("conn %d still open after %s", i, time.Since(start)))
			}
			statuses[strings.TrimSpace(status)]++
		}()
	}
	wg.Wait()
	took := time.Since(start)
	t.Logf("%d slow-body connections, cap %d, body timeout %s: all closed after %s; answers %v", conns, limit, timeout, took, statuses)
	if len(held) > 0 {
		t.Fatalf("%d connections held: %v", len(held), held[:min(5, len(held))])
	}
	if took > timeout+2*time.Second {
		t.Errorf("shedding took %s, want about the body timeout %s", took, timeout)
	}
	if statuses["HTTP/1.1 408 Request Timeout"] == 0 || statuses["HTTP/1.1 503 Service Unavailable"] == 0 {
		t.Errorf("answers %v: want 408 for the connections inside the cap and 503 for the rest", statuses)
	}
	// The server still serves.
	var buf bytes.Buffer
	fmt.Fprintf(&buf, initBody, "1")
	if r := post(t, url, nil, buf.String()); r.status != http.StatusOK {
		t.Fatalf("after the flood: %d %q", r.status, r.body)
	}
}
