package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawMCP speaks newline-delimited JSON-RPC to a `memtrace mcp` subprocess
// byte by byte, as a careless agent might.
type rawMCP struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// wireMsg is any JSON-RPC message the server writes.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func startRawMCP(t *testing.T, bin string) *rawMCP {
	t.Helper()
	cmd := exec.Command(bin, "mcp", "--db", filepath.Join(t.TempDir(), "frames.db"))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawMCP{t: t, cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("memtrace mcp exited with %v\nstderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("memtrace mcp did not exit when stdin closed")
		}
	})
	return r
}

func (r *rawMCP) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("write %q: %v", line, err)
	}
}

// next returns the next message the server writes (a batch answer is
// returned as its elements, joined by the caller through nextRaw).
func (r *rawMCP) nextRaw() string {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the server closed stdout (it died)")
		}
		return l
	case <-time.After(15 * time.Second):
		r.t.Fatal("no answer from the server within 15 s")
	}
	return ""
}

func (r *rawMCP) next() wireMsg {
	r.t.Helper()
	l := r.nextRaw()
	var m wireMsg
	if err := json.Unmarshal([]byte(l), &m); err != nil {
		r.t.Fatalf("server wrote %q, not one JSON-RPC message: %v", l, err)
	}
	return m
}

func (r *rawMCP) initialize(version string) wireMsg {
	r.t.Helper()
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"frames-test","version":"1"}}}`, version))
	m := r.next()
	if m.Error != nil || string(m.ID) != `"init"` {
		r.t.Fatalf("initialize answered %+v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

// TestMCPMalformedFramesKeepTheSessionAlive sends every kind of malformed
// frame an agent has been seen to send, each between two pings, and checks
// that both pings are answered and the fault gets the JSON-RPC 2.0 code.
func TestMCPMalformedFramesKeepTheSessionAlive(t *testing.T) {
	bin := buildMemtrace(t)
	r := startRawMCP(t, bin)

	// A call before initialize is refused with a real code, not 0.
	r.send(`{"jsonrpc":"2.0","id":"early","method":"tools/list"}`)
	if m := r.next(); m.Error == nil || m.Error.Code != -32600 || string(m.ID) != `"early"` {
		t.Fatalf("tools/list before initialize answered %+v, want -32600 with id \"early\"", m)
	}

	init := r.initialize("2025-06-18")
	var ir struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Version string }
		Capabilities    map[string]json.RawMessage
	}
	if err := json.Unmarshal(init.Result, &ir); err != nil {
		t.Fatal(err)
	}
	if ir.ProtocolVersion != "2025-06-18" {
		t.Fatalf("negotiated %q", ir.ProtocolVersion)
	}
	if ir.ServerInfo.Version == "" {
		t.Error("serverInfo.version is empty")
	}
	if got := string(ir.Capabilities["tools"]); got != "{}" && !strings.Contains(got, `"listChanged":false`) {
		t.Errorf("tools capability %s: the tool list never changes, listChanged must not be true", got)
	}
	if _, ok := ir.Capabilities["logging"]; ok {
		t.Error("logging capability advertised but the server sends no log messages")
	}

	cases := []struct {
		name, frame string
		code        int
		id          string // the id the error must carry ("null" when none can be read)
	}{
		{"broken object", `{oops`, -32700, "null"},
		{"prose", `this is not json`, -32700, "null"},
		{"header", `Content-Length: 123`, -32700, "null"},
		{"two values on a line", `{"jsonrpc":"2.0","id":9,"method":"ping"}{"x":1}`, -32700, "null"},
		{"empty array", `[]`, -32600, "null"},
		{"empty object", `{}`, -32600, "null"},
		{"number", `42`, -32600, "null"},
		{"bare string", `"hello"`, -32600, "null"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, "7"},
		{"no jsonrpc member", `{"id":8,"method":"ping"}`, -32600, "8"},
		{"id is an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"batch after 2025-06-18", `[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`, -32600, "null"},
	}
	for i, c := range cases {
		before, after := fmt.Sprintf(`"p%d-a"`, i), fmt.Sprintf(`"p%d-b"`, i)
		r.send(`{"jsonrpc":"2.0","id":` + before + `,"method":"ping"}`)
		r.send(c.frame)
		r.send(`{"jsonrpc":"2.0","id":` + after + `,"method":"ping"}`)
		var pings, faults int
		for pings < 2 || faults < 1 {
			m := r.next()
			switch {
			case m.Error == nil && (string(m.ID) == before || string(m.ID) == after):
				pings++
			case m.Error != nil:
				faults++
				if m.Error.Code != c.code || string(m.ID) != c.id {
					t.Errorf("%s %q: error %d %q id %s, want code %d id %s", c.name, c.frame, m.Error.Code, m.Error.Message, m.ID, c.code, c.id)
				}
			default:
				t.Fatalf("%s: unexpected message id %s result %s", c.name, m.ID, m.Result)
			}
		}
		if faults != 1 {
			t.Errorf("%s: %d error replies, want 1", c.name, faults)
		}
	}

	// After all of it the tools still work.
	r.send(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	if m := r.next(); m.Error != nil || !strings.Contains(string(m.Result), "memory_recall") {
		t.Fatalf("tools/list after the faults: %+v", m)
	}
}

// TestMCPBatchBeforeTwentyFiveJuneEighteen: a client that negotiated
// 2025-03-26 may batch; the answer is one array with every response.
func TestMCPBatchBeforeTwentyFiveJuneEighteen(t *testing.T) {
	bin := buildMemtrace(t)
	r := startRawMCP(t, bin)
	r.initialize("2025-03-26")
	r.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`)
	l := r.nextRaw()
	var arr []wireMsg
	if err := json.Unmarshal([]byte(l), &arr); err != nil {
		t.Fatalf("batch answered %q, want an array: %v", l, err)
	}
	if len(arr) != 2 || string(arr[0].ID) != "1" || string(arr[1].ID) != "2" || arr[0].Error != nil || arr[1].Error != nil {
		t.Fatalf("batch answered %s", l)
	}
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if m := r.next(); string(m.ID) != "3" || m.Error != nil {
		t.Fatalf("ping after the batch: %+v", m)
	}
}

// TestMCPOverHTTP: `memtrace mcp --http` serves the same tools over the
// streamable HTTP transport on loopback, and refuses other addresses.
func TestMCPOverHTTP(t *testing.T) {
	bin := buildMemtrace(t)
	refused := filepath.Join(t.TempDir(), "refused.db")
	if out, err := exec.Command(bin, "mcp", "--db", refused, "--http", "0.0.0.0:0").CombinedOutput(); err == nil || !strings.Contains(string(out), "loopback") {
		t.Fatalf("--http 0.0.0.0:0: %v %s, want a refusal naming loopback", err, out)
	}
	if _, err := os.Lstat(refused); !os.IsNotExist(err) {
		t.Fatalf("a refused --http address created the database %s (%v)", refused, err)
	}
	url, line := startHTTPMCP(t, bin, "mcp", "--db", filepath.Join(t.TempDir(), "http.db"), "--http", "127.0.0.1:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("server said %q", line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil || len(lt.Tools) != 5 {
		t.Fatalf("tools/list over HTTP: %v %v", err, lt)
	}
}

// TestMCPAnswersAHereDoc: a script that writes initialize, its calls right
// behind it without waiting for answers, and then closes stdin (a
// here-doc, `< file`) gets every call answered and its capture stored
// before the server exits.
func TestMCPAnswersAHereDoc(t *testing.T) {
	bin := buildMemtrace(t)
	db := filepath.Join(t.TempDir(), "heredoc.db")
	script := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_capture","arguments":{"text":"I keep my bike in the basement storage room."}}}`,
	}, "\n") + "\n"
	cmd := exec.Command(bin, "mcp", "--db", db)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("memtrace mcp: %v\n%s", err, out)
	}
	answered := map[string]wireMsg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		answered[string(m.ID)] = m
	}
	for _, id := range []string{"1", "2", "3"} {
		m, ok := answered[id]
		if !ok || m.Error != nil || len(m.Result) == 0 {
			t.Fatalf("call %s: %+v (answered: %d lines)\n%s", id, m, len(answered), out)
		}
	}
	if !strings.Contains(string(answered["3"].Result), `\"outcome\":\"stored\"`) {
		t.Fatalf("memory_capture: %s", answered["3"].Result)
	}
	list, err := exec.Command(bin, "--db", db, "list", "--json").Output()
	if err != nil || !strings.Contains(string(list), "basement storage room") {
		t.Fatalf("the capture is not in the database after the server exited: %v\n%s", err, list)
	}
}

// startHTTPMCP starts `memtrace mcp --http …` (args: the binary, then its
// arguments), stops it with an interrupt when the test ends (it must stop
// cleanly), and returns the URL it serves and the line that said so.
func startHTTPMCP(t *testing.T, bin string, args ...string) (url, line string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stderr)
	rest := make(chan string, 1)
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		said := <-rest // what it wrote after its first line (read before Wait closes the pipe)
		if err := cmd.Wait(); err != nil {
			t.Errorf("memtrace mcp --http did not stop cleanly on interrupt: %v; it said after starting:\n%s", err, said)
		}
	})
	line, err = r.ReadString('\n')
	if err != nil {
		rest <- ""
		t.Fatal(err)
	}
	go func() {
		b, _ := io.ReadAll(r)
		rest <- string(b)
	}()
	return strings.TrimSpace(strings.TrimPrefix(line, "memtrace mcp: serving ")), line
}
