package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// pipeConn connects a LineTransport to pipes the test writes and reads.
func pipeConn(t *testing.T, inFlight int) (*lineConn, *io.PipeWriter, *bufio.Reader) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c, err := (&LineTransport{Reader: inR, Writer: outW, MaxInFlight: inFlight}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); inW.Close(); outR.Close() })
	return c.(*lineConn), inW, bufio.NewReader(outR)
}

// TestStdioInFlightLimit: with the limit reached the next call is not
// handed to the session until one is answered; answers keep their ids.
func TestStdioInFlightLimit(t *testing.T) {
	c, in, _ := pipeConn(t, 2)
	ctx := context.Background()
	go func() {
		for _, id := range []string{"1", "2", "3"} {
			io.WriteString(in, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`+"\n")
		}
	}()
	var got []jsonrpc.ID
	for range 2 {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.(*jsonrpc.Request).ID)
	}
	third := make(chan jsonrpc.Message, 1)
	go func() {
		m, _ := c.Read(ctx)
		third <- m
	}()
	select {
	case m := <-third:
		t.Fatalf("a third call was handed on with two in flight: %v", m)
	case <-time.After(200 * time.Millisecond):
	}
	go func() { // the answer goes to the pipe nobody reads here: drain it
		_ = c.Write(ctx, &jsonrpc.Response{ID: got[1], Result: json.RawMessage(`{}`)})
	}()
	select {
	case m := <-third:
		if id := m.(*jsonrpc.Request).ID; id.Raw() != int64(3) {
			t.Fatalf("third call has id %v", id.Raw())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the third call was not handed on after an answer")
	}
}

// TestStdioIDsEchoedExactly: over stdin/stdout too an id is answered as it
// was sent, and "id": null is refused with -32600 and id null.
func TestStdioIDsEchoedExactly(t *testing.T) {
	c, in, out := pipeConn(t, 0)
	ctx := context.Background()
	go func() {
		for {
			m, err := c.Read(ctx)
			if err != nil {
				return
			}
			if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
				_ = c.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			}
		}
	}()
	for _, id := range []string{`1.5`, `11.5`, `9007199254740993`, `1e3`, `7`, `"abc"`, `"memtrace-id-1"`} {
		io.WriteString(in, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`+"\n")
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) != nil || string(m["id"]) != id || m["result"] == nil {
			t.Errorf("id %s answered %q", id, line)
		}
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":null,"method":"ping"}`+"\n")
	line, _ := out.ReadString('\n')
	if !strings.Contains(line, `"id":null`) || !strings.Contains(line, `-32600`) {
		t.Fatalf("id null answered %q", line)
	}
	// A faulty message with an inexact id is answered with that id too.
	io.WriteString(in, `{"jsonrpc":"1.0","id":2.25,"method":"ping"}`+"\n")
	if line, _ := out.ReadString('\n'); !strings.Contains(line, `"id":2.25`) || !strings.Contains(line, `-32600`) {
		t.Fatalf("jsonrpc 1.0 with id 2.25 answered %q", line)
	}
}
