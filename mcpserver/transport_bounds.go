package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// admit waits until fewer than maxInFlight calls are being served before
// it hands m, a call, to the session. Until then no further line is read.
func (c *lineConn) admit(ctx context.Context, m jsonrpc.Message) error {
	req, ok := m.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.running) >= c.maxInFlight {
		ch := c.answered
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			c.mu.Lock()
			return ctx.Err()
		case <-c.closed:
			c.mu.Lock()
			return io.EOF
		}
		c.mu.Lock()
	}
	c.running[req.ID] = true
	return nil
}

// surrogate registers a string id standing for raw, an id the SDK cannot
// hold exactly (1.5, 2^53+1), until its answer is written.
func (c *lineConn) surrogate(raw json.RawMessage) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(fmt.Sprintf("memtrace-id-%d", surrogates.Add(1))) // a string is always an id
	c.mu.Lock()
	c.rawIDs[id] = append(json.RawMessage(nil), raw...)
	c.mu.Unlock()
	return id
}

// encode encodes m, the answer to a call with a surrogate id carrying the
// id the client sent.
func (c *lineConn) encode(m jsonrpc.Message) ([]byte, error) {
	data, err := jsonrpc.EncodeMessage(m)
	resp, ok := m.(*jsonrpc.Response)
	if err != nil || !ok {
		return data, err
	}
	c.mu.Lock()
	raw, sur := c.rawIDs[resp.ID]
	delete(c.rawIDs, resp.ID)
	c.mu.Unlock()
	if !sur {
		return data, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	fields["id"] = raw
	return json.Marshal(fields)
}
