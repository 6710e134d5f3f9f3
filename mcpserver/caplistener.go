package mcpserver

import (
	"net"
	"sync"
	"time"
)

// CapListener accepts at most max connections at once. One more is shed at
// once — answered "503 Service Unavailable" and closed — instead of waiting
// in the kernel's backlog as a blocking limit (netutil.LimitListener) would
// keep it: a flood of slow clients is turned away within the request
// timeout, and the ones inside the cap are cut off by it.
func CapListener(l net.Listener, max int) net.Listener {
	return &capListener{Listener: l, slots: make(chan struct{}, max)}
}

type capListener struct {
	net.Listener
	slots chan struct{}
}

const shedResponse = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 56\r\n\r\nmemtrace mcp: too many connections open, try again soon\n"

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &capConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			go shed(c)
		}
	}
}

func shed(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write([]byte(shedResponse))
	_ = c.Close()
}

type capConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
