package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// guard is what memtrace checks of an HTTP request before the SDK's
// streamable handler sees it. The SDK already refuses a non-localhost Host
// on a loopback listener (403), a GET or DELETE without Mcp-Session-Id
// (400) and an unknown session (404), and bounds the body (4 MiB, 413). It
// does not check Origin, serves a POST without a session id (a new,
// uninitialised session: tools/call then fails with code 0), reads the id
// 11.5 as 11 and large integers as float64, and takes "id": null for a
// notification. Those are done here.
type guard struct {
	next     http.Handler
	token    [sha256.Size]byte
	hasToken bool
	origins  map[string]bool
	body     time.Duration
	maxBody  int64
}

// sessionHeader is the streamable transport's session id header.
const sessionHeader = "Mcp-Session-Id"

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q (memtrace serves localhost only)", r.Host), http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o) {
		http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not allowed; start memtrace mcp with --allow-origin %s to allow it", o, o), http.StatusForbidden)
		return
	}
	if g.hasToken && !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="memtrace"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer TOKEN, the token in memtrace mcp's --token-file", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodPost {
		g.next.ServeHTTP(w, r)
		return
	}
	body, status, err := g.readBody(w, r)
	if err != nil {
		w.Header().Set("Connection", "close")
		writeRPCError(w, status, nil, jsonrpc.CodeInvalidRequest, err.Error())
		return
	}
	msgs, batch, err := splitMessages(body)
	if err != nil {
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "parse error: the body is not one JSON-RPC message or a batch of them")
		return
	}
	init := false
	ids := map[string]json.RawMessage{}
	for i, m := range msgs {
		if m.nullID {
			writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, `invalid request: "id" must be a string or an integer, not null`)
			return
		}
		init = init || m.Method == "initialize" || hasMeta(m.Params) || r.Header.Get("MCP-Protocol-Version") >= statelessFrom
		if m.id != nil && !roundTrips(m.id) {
			// The SDK would answer 11.5 as 11 and 2^53+1 as 2^53: it
			// sees a surrogate string id, and the answer gets the id
			// exactly as it was sent.
			sur := fmt.Sprintf("memtrace-id-%d", surrogates.Add(1))
			ids[sur] = m.id
			msgs[i].raw["id"], _ = json.Marshal(sur)
		}
	}
	if r.Header.Get(sessionHeader) == "" && !init {
		var id json.RawMessage
		if !batch && len(msgs) == 1 {
			id = msgs[0].id
		}
		writeRPCError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
			"Bad Request: Mcp-Session-Id header missing: send initialize first and pass the session id its answer carries")
		return
	}
	if len(ids) > 0 {
		body = joinMessages(msgs, batch)
		w = &idWriter{ResponseWriter: w, ids: ids}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	g.next.ServeHTTP(w, r)
	if iw, ok := w.(*idWriter); ok {
		iw.finish()
	}
}

var surrogates atomic.Int64

// readBody reads the request body within the body timeout and the size
// bound; a slow or endless body is cut off and its connection closed.
func (g *guard) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(g.body))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBody))
	if err == nil {
		// The call may run long and its answer stream stay open: no
		// deadline on the connection from here on. After a failed read the
		// expired deadline stays, so the server does not wait for the rest
		// of the body before it closes the connection.
		_ = rc.SetReadDeadline(time.Time{})
	}
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request body exceeds %d bytes: send smaller messages", mbe.Limit)
	case errors.As(err, &ne) && ne.Timeout():
		return nil, http.StatusRequestTimeout, fmt.Errorf("request body not received within %s", g.body)
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("read the request body: %v", err)
	}
	return body, 0, nil
}

// authorized compares the bearer token in constant time (of equal-length
// digests, so the token's length does not leak either).
func (g *guard) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		tok = ""
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], g.token[:]) == 1 && ok
}

// originAllowed: a browser page on a loopback origin, or one the user
// named with --allow-origin. A request without Origin (not from a browser)
// is not checked.
func (g *guard) originAllowed(o string) bool {
	if g.origins[strings.TrimRight(o, "/")] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return loopbackHost(u.Host)
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// rpcMessage is one message of a request body, kept as its raw members so
// the body handed on differs from the one sent only in the ids replaced.
type rpcMessage struct {
	raw    map[string]json.RawMessage
	id     json.RawMessage // nil: no id member
	nullID bool
	Method string
	Params json.RawMessage
}

func splitMessages(body []byte) ([]rpcMessage, bool, error) {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	batch := len(body) > 0 && body[0] == '['
	if batch {
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, true, err
		}
	} else {
		raws = []json.RawMessage{body}
	}
	msgs := make([]rpcMessage, 0, len(raws))
	for _, raw := range raws {
		var m rpcMessage
		if err := json.Unmarshal(raw, &m.raw); err != nil {
			return nil, batch, err
		}
		if id, ok := m.raw["id"]; ok {
			if string(bytes.TrimSpace(id)) == "null" {
				m.nullID = m.raw["method"] != nil
			} else {
				m.id = id
			}
		}
		_ = json.Unmarshal(m.raw["method"], &m.Method)
		m.Params = m.raw["params"]
		msgs = append(msgs, m)
	}
	return msgs, batch, nil
}

func joinMessages(msgs []rpcMessage, batch bool) []byte {
	if !batch {
		b, _ := json.Marshal(msgs[0].raw)
		return b
	}
	arr := make([]map[string]json.RawMessage, len(msgs))
	for i, m := range msgs {
		arr[i] = m.raw
	}
	b, _ := json.Marshal(arr)
	return b
}

// roundTrips reports whether the SDK hands back id as it was sent: a
// string, or an integer float64 holds exactly.
func roundTrips(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return true // not an id the SDK takes; it answers the fault itself
	}
	switch v := v.(type) {
	case string:
		return true
	case float64:
		return v == float64(int64(v)) && fmt.Sprint(int64(v)) == string(bytes.TrimSpace(id)) && v < 1<<53 && v > -(1<<53)
	}
	return true
}

// writeRPCError answers with a JSON-RPC error body; id nil is "id": null.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// idWriter puts the ids the client sent back into the answers to a
// request whose ids were replaced, in a JSON body or in each event of an
// event stream.
type idWriter struct {
	http.ResponseWriter
	ids     map[string]json.RawMessage
	pending []byte // an event stream's incomplete event, or a whole JSON body
}

func (w *idWriter) sse() bool {
	return strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream")
}

func (w *idWriter) Write(p []byte) (int, error) {
	w.pending = append(w.pending, p...)
	if !w.sse() {
		return len(p), nil // written whole by finish
	}
	for {
		i := bytes.Index(w.pending, []byte("\n\n"))
		if i < 0 {
			return len(p), nil
		}
		ev := w.rewriteEvent(w.pending[:i+2])
		w.pending = w.pending[i+2:]
		if _, err := w.ResponseWriter.Write(ev); err != nil {
			return 0, err
		}
	}
}

func (w *idWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.sse() {
		f.Flush()
	}
}

func (w *idWriter) finish() {
	if len(w.pending) == 0 {
		return
	}
	out := w.pending
	if !w.sse() {
		out = w.rewrite(out)
	}
	w.pending = nil
	_, _ = w.ResponseWriter.Write(out)
}

func (w *idWriter) rewriteEvent(ev []byte) []byte {
	lines := bytes.Split(ev, []byte("\n"))
	for i, l := range lines {
		if d, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
			lines[i] = append([]byte("data: "), w.rewrite(d)...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// rewrite restores the client's ids in one message or a batch of them.
func (w *idWriter) rewrite(data []byte) []byte {
	one := func(m map[string]json.RawMessage) {
		var sur string
		if json.Unmarshal(m["id"], &sur) == nil {
			if raw, ok := w.ids[sur]; ok {
				m["id"] = raw
			}
		}
	}
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '[' {
		var arr []map[string]json.RawMessage
		if json.Unmarshal(t, &arr) != nil {
			return data
		}
		for _, m := range arr {
			one(m)
		}
		b, _ := json.Marshal(arr)
		return b
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return data
	}
	one(m)
	b, _ := json.Marshal(m)
	return b
}

// ReadTokenFile reads the bearer token from path. The file must not be
// readable or writable by others than its owner's group (chmod 600 it):
// a token anyone on the machine can read protects nothing.
func ReadTokenFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("--token-file %s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o007 != 0 {
		return "", fmt.Errorf("--token-file %s has mode %04o: others can read it; run chmod 600 %s", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
		return "", fmt.Errorf("--token-file %s must hold one token on one line (e.g. the output of openssl rand -hex 32)", path)
	}
	return tok, nil
}
