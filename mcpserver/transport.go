package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes bounds one inbound line. A longer line is answered with
// -32600 and skipped; the session goes on.
const MaxFrameBytes = 16 << 20

// batchesUntil is the first protocol version that removed JSON-RPC
// batching (MCP 2025-06-18); versions sort as dates.
const batchesUntil = "2025-06-18"

// LineTransport serves MCP over newline-delimited JSON on a reader and a
// writer, like the SDK's stdio transport, but a frame that is not valid
// JSON-RPC is answered with the error the JSON-RPC 2.0 specification names
// (-32700 parse error, -32600 invalid request) and the session goes on: an
// agent that sends one bad line must not lose its memory for the rest of
// the session. A call made before initialize is refused with -32600.
type LineTransport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxFrame bounds one line (0: MaxFrameBytes).
	MaxFrame int
	// MaxInFlight bounds the calls being served at once (0: DefaultMaxInFlight).
	// A client that pipelines more waits: the next line is read when a call
	// is answered, so memory stays bounded however many calls are sent; the
	// answers still carry their ids.
	MaxInFlight int
}

// DefaultMaxInFlight is the in-flight call limit of a stdio session.
func DefaultMaxInFlight() int { return 2 * runtime.GOMAXPROCS(0) }

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxFrame
	if limit <= 0 {
		limit = MaxFrameBytes
	}
	inFlight := t.MaxInFlight
	if inFlight <= 0 {
		inFlight = DefaultMaxInFlight()
	}
	c := &lineConn{w: t.Writer, in: make(chan frame), closed: make(chan struct{}), maxInFlight: inFlight,
		pending: map[jsonrpc.ID]string{}, batches: map[jsonrpc.ID]*batch{}, running: map[jsonrpc.ID]bool{}, rawIDs: map[jsonrpc.ID]json.RawMessage{}, answered: make(chan struct{})}
	go c.readLines(bufio.NewReaderSize(t.Reader, 64<<10), limit)
	return c, nil
}

// frame is one line read from the peer, or the error that ended reading.
type frame struct {
	line []byte
	err  error
}

type lineConn struct {
	w       io.Writer
	writeMu sync.Mutex

	in        chan frame
	closed    chan struct{}
	closeOnce sync.Once

	queue []jsonrpc.Message // the rest of a batch, read before the next line

	mu          sync.Mutex
	version     string // the negotiated protocol version, once initialize was answered
	initID      jsonrpc.ID
	initialized bool
	pending     map[jsonrpc.ID]string // method of every call not yet answered
	batches     map[jsonrpc.ID]*batch
	running     map[jsonrpc.ID]bool            // calls handed to the session, not yet answered
	rawIDs      map[jsonrpc.ID]json.RawMessage // surrogate → the id as the client sent it
	maxInFlight int
	// answered is closed (and replaced) whenever a call is answered.
	answered chan struct{}
}

// batch collects the responses to the calls of one inbound batch, which
// are written together as one array (JSON-RPC 2.0, "Batch").
type batch struct {
	open      int
	responses []*jsonrpc.Response
	index     map[jsonrpc.ID]int
}

func (c *lineConn) readLines(r *bufio.Reader, limit int) {
	for {
		line, tooLong, err := readLine(r, limit)
		if tooLong {
			line = nil
		}
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			f := frame{line: line}
			if tooLong {
				f.err = errFrameTooLarge
			}
			select {
			case c.in <- f:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.in <- frame{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

var errFrameTooLarge = errors.New("frame too large")

// readLine reads one line without its newline; a line longer than limit
// is read to its end and discarded (tooLong).
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+2 { // +2: the \r\n itself
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.read(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.admit(ctx, m); err != nil {
		return nil, err
	}
	return m, nil
}

func (c *lineConn) read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			return m, nil
		}
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.in:
		}
		if f.err == errFrameTooLarge {
			c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("frame longer than %d bytes: send smaller messages", MaxFrameBytes))
			continue
		}
		if f.err != nil {
			// The peer stopped sending (stdin closed after a here-doc):
			// the calls it sent are answered before the session ends.
			c.drain(ctx)
			return nil, f.err
		}
		msgs := c.accept(ctx, f.line)
		if len(msgs) == 0 {
			continue
		}
		c.queue = msgs[1:]
		return msgs[0], nil
	}
}

// drain waits until every call read so far is answered, or ctx ends, or
// the connection is closed.
func (c *lineConn) drain(ctx context.Context) {
	for {
		c.mu.Lock()
		n, ch := len(c.pending), c.answered
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		}
	}
}

// accept validates one line and returns the messages to hand to the
// session; every fault is answered here.
func (c *lineConn) accept(ctx context.Context, line []byte) []jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not one JSON value (one JSON-RPC message per line, no headers)")
		return nil
	}
	if line[0] != '[' {
		m, ok := c.message(ctx, line)
		if !ok {
			return nil
		}
		if !c.allowed(ctx, m) {
			return nil
		}
		return []jsonrpc.Message{m}
	}
	var raws []json.RawMessage
	_ = json.Unmarshal(line, &raws) // valid JSON array
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if version >= batchesUntil {
		c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("JSON-RPC batches are not part of MCP %s: send one message per line", version))
		return nil
	}
	if len(raws) == 0 {
		c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "empty batch: send at least one message")
		return nil
	}
	var out []jsonrpc.Message
	b := &batch{index: map[jsonrpc.ID]int{}}
	for _, raw := range raws {
		m, ok := c.message(ctx, raw)
		if !ok || !c.allowed(ctx, m) {
			continue
		}
		if req, isReq := m.(*jsonrpc.Request); isReq && req.IsCall() {
			if _, dup := b.index[req.ID]; dup {
				c.reject(ctx, req.ID, jsonrpc.CodeInvalidRequest, "duplicate id in one batch")
				continue
			}
			b.index[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
			b.open++
		}
		out = append(out, m)
	}
	if b.open > 0 {
		c.mu.Lock()
		for id := range b.index {
			c.batches[id] = b
		}
		c.mu.Unlock()
	}
	return out
}

// message decodes one JSON-RPC message, answering -32600 when it is not one.
func (c *lineConn) message(ctx context.Context, raw []byte) (jsonrpc.Message, bool) {
	var head struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object")
		return nil, false
	}
	if string(bytes.TrimSpace(head.ID)) == "null" && len(head.Method) > 0 {
		c.reject(ctx, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, `invalid request: "id" must be a string or an integer, not null`)
		return nil, false
	}
	id := idOf(head.ID)
	exact := head.ID == nil || roundTrips(head.ID)
	if !exact {
		id = c.surrogate(head.ID)
	}
	if head.JSONRPC == nil || *head.JSONRPC != "2.0" {
		c.reject(ctx, id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil, false
	}
	m, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		c.reject(ctx, id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	if !exact {
		// The SDK would answer 1.5 as 1: it sees the surrogate, and the
		// answer is written with the id as it was sent.
		switch m := m.(type) {
		case *jsonrpc.Request:
			m.ID = id
		case *jsonrpc.Response:
			m.ID = id
		}
	}
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "" {
		c.reject(ctx, id, jsonrpc.CodeInvalidRequest, `invalid request: "method" is empty`)
		return nil, false
	}
	return m, true
}

// allowed refuses a call other than initialize and ping before the
// session was initialised (the SDK would answer with code 0), and notes
// the method of every call so its answer can be recognised.
func (c *lineConn) allowed(ctx context.Context, m jsonrpc.Message) bool {
	req, ok := m.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return true
	}
	c.mu.Lock()
	for !c.initialized && req.Method != "initialize" && c.initID.IsValid() && c.pending[c.initID] == "initialize" {
		// A client that sends its calls right behind initialize, without
		// waiting for the answer (a script, a here-doc): they wait for
		// initialize to be answered instead of being refused.
		ch := c.answered
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-c.closed:
			return false
		}
		c.mu.Lock()
	}
	if _, dup := c.pending[req.ID]; dup {
		c.mu.Unlock()
		c.reject(ctx, req.ID, jsonrpc.CodeInvalidRequest, "invalid request: this id is already in use by a call not yet answered")
		return false
	}
	ready := c.initialized || req.Method == "initialize" || req.Method == "ping" || req.Method == "server/discover" || hasMeta(req.Params)
	if ready {
		c.pending[req.ID] = req.Method
		if req.Method == "initialize" {
			c.initID = req.ID
		}
	}
	c.mu.Unlock()
	if !ready {
		c.reject(ctx, req.ID, jsonrpc.CodeInvalidRequest, fmt.Sprintf("%s before initialize: send initialize first", req.Method))
	}
	return ready
}

// statelessFrom is the first protocol version whose calls carry their
// protocol version in _meta instead of following an initialize handshake.
const statelessFrom = "2026-07-28"

// hasMeta reports whether params carry the per-request protocol version
// of the stateless protocol (2026-07-28 and later), where no initialize
// precedes calls; the SDK checks the rest of that metadata itself.
func hasMeta(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	var v string
	return json.Unmarshal(p.Meta[mcp.MetaKeyProtocolVersion], &v) == nil && v >= statelessFrom
}

// idOf recovers the id of a faulty message when it has a valid one.
func idOf(raw json.RawMessage) jsonrpc.ID {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// reject answers a faulty frame. When its id cannot be read the answer
// carries "id": null, as JSON-RPC 2.0 requires (the SDK's encoder would
// leave the member out).
func (c *lineConn) reject(ctx context.Context, id jsonrpc.ID, code int64, msg string) {
	if id.IsValid() {
		_ = c.write(ctx, &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
		return
	}
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      *int           `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", nil, &jsonrpc.Error{Code: code, Message: msg}})
	if err == nil {
		_ = c.writeBytes(data)
	}
}

func (c *lineConn) Write(ctx context.Context, m jsonrpc.Message) error {
	resp, ok := m.(*jsonrpc.Response)
	if !ok {
		return c.write(ctx, m)
	}
	c.mu.Lock()
	method := c.pending[resp.ID]
	delete(c.pending, resp.ID)
	delete(c.running, resp.ID)
	close(c.answered)
	c.answered = make(chan struct{})
	if method == "initialize" && resp.ID == c.initID && resp.Error == nil {
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(resp.Result, &r) == nil {
			c.version, c.initialized = r.ProtocolVersion, true
		}
	}
	b := c.batches[resp.ID]
	var done []*jsonrpc.Response
	if b != nil {
		delete(c.batches, resp.ID)
		b.responses[b.index[resp.ID]] = resp
		b.open--
		if b.open == 0 {
			done = b.responses
		}
	}
	c.mu.Unlock()
	if resp.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(resp.Error, &we) || we.Code == 0 {
			// The SDK answers some faults (a second initialize) with code 0,
			// which the specification does not have.
			resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: resp.Error.Error()}
		}
	}
	if b == nil {
		return c.write(ctx, resp)
	}
	if done == nil {
		return nil
	}
	var arr []json.RawMessage
	for _, r := range done {
		data, err := c.encode(r)
		if err != nil {
			return fmt.Errorf("encode a batch response: %w", err)
		}
		arr = append(arr, data)
	}
	data, err := json.Marshal(arr)
	if err != nil {
		return err
	}
	return c.writeBytes(data)
}

func (c *lineConn) write(ctx context.Context, m jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := c.encode(m)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.writeBytes(data)
}

func (c *lineConn) writeBytes(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
