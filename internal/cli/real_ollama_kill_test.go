package cli

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ollama/ollama/api"

	"memtrace/internal/testdata/ollamatest"
	"memtrace/mcpserver"
)

// The kill tests start an Ollama server of their own — the binary and the
// model store of the real server OLLAMA_HOST names (.ci/ollama.sh exports
// OLLAMA_CI_PID and OLLAMA_CI_DIR; MEMTRACE_OLLAMA_BIN and OLLAMA_MODELS
// for a developer's own) — on a port of its own, and kill it with SIGKILL
// mid-session: the shared server keeps running for the other tests.

// ownOllama is a private `ollama serve` over the real server's models.
type ownOllama struct {
	t      *testing.T
	bin    string
	models string
	home   string
	host   string
	cmd    *exec.Cmd
}

// startOwnOllama starts the private server and waits until it answers.
func startOwnOllama(t *testing.T) *ownOllama {
	t.Helper()
	ollamatest.Real(t)
	o := &ownOllama{t: t, home: t.TempDir(), bin: os.Getenv("MEMTRACE_OLLAMA_BIN"), models: os.Getenv("OLLAMA_MODELS")}
	if pid := os.Getenv("OLLAMA_CI_PID"); o.bin == "" && pid != "" {
		o.bin, _ = os.Readlink("/proc/" + pid + "/exe")
	}
	if o.bin == "" {
		o.bin, _ = exec.LookPath("ollama")
	}
	if dir := os.Getenv("OLLAMA_CI_DIR"); o.models == "" && dir != "" {
		o.models = filepath.Join(dir, "store")
	}
	if o.bin == "" {
		msg := "no ollama binary to start a server of its own: set MEMTRACE_OLLAMA_BIN, or run under `.ci/ollama.sh env` (OLLAMA_CI_PID)"
		if ollamatest.Required() {
			t.Fatal(msg)
		}
		t.Log("SKIP " + msg)
		t.Skip(msg)
	}
	o.start()
	t.Cleanup(o.kill)
	return o
}

// start runs `ollama serve` on a free loopback port.
func (o *ownOllama) start() {
	t := o.t
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.host = l.Addr().String()
	l.Close()
	cmd := exec.Command(o.bin, "serve")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+o.host, "HOME="+o.home, "OLLAMA_NOPRUNE=1")
	if o.models != "" {
		cmd.Env = append(cmd.Env, "OLLAMA_MODELS="+o.models)
	}
	logf, err := os.Create(filepath.Join(o.home, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s serve: %v", o.bin, err)
	}
	o.cmd = cmd
	c := api.NewClient(&url.URL{Scheme: "http", Host: o.host}, &http.Client{Timeout: 2 * time.Second})
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := c.Version(context.Background()); err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("own ollama on %s did not answer in 90 s:\n%s", o.host, log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// kill ends the server with SIGKILL, as a crash or an OOM kill would.
func (o *ownOllama) kill() {
	if o.cmd == nil {
		return
	}
	_ = o.cmd.Process.Kill()
	_ = o.cmd.Wait()
	o.cmd = nil
}

func (o *ownOllama) url() string { return "http://" + o.host }

// TestRealOllamaKilledMidMCPSession: an `mcp` session whose Ollama server
// is killed loses no statement — a capture is held in the review queue,
// recall answers lexically, correct answers — and every command works
// offline; the server back, `review retry` stores what was held.
func TestRealOllamaKilledMidMCPSession(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.EmbedModel)
	o := startOwnOllama(t)
	t.Setenv("OLLAMA_HOST", o.url())
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "--db", db, "--embedder", "ollama:"+model, "add", "I grow apples in Chungju every autumn.")
	mustRun(t, "--db", db, "add", "충주 과수원에서 사과를 따는 건 매년 시월이에요.")

	bin := buildMemtrace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "memtrace-kill-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--db", db)}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	defer cs.Close()
	var before mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": "My daughter Minji starts school in Busan next March."}, &before)
	if before.Outcome != "stored" {
		t.Fatalf("capture with the server up: %+v", before)
	}

	o.kill()
	statements := []string{
		"I keep bees on the roof of our house in Chungju.",
		"저는 매주 토요일 아침에 한강에서 자전거를 타요.",
	}
	for _, s := range statements {
		var out mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_capture", map[string]any{"text": s}, &out)
		if out.Outcome != "held" {
			t.Errorf("capture of %q with the server killed: %+v, want held", s, out)
		}
	}
	var corr mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_correct", map[string]any{"text": "Don't use tabs, use two spaces for indentation."}, &corr)
	t.Logf("correct with the server killed: %s (%s)", corr.Outcome, corr.Reason)
	rec := recallTool(t, ctx, cs, map[string]any{"query": "Minji school Busan", "read_only": true})
	if !strings.Contains(rec.Prompt, "Minji") {
		t.Errorf("recall with the server killed found no Minji: %+v", rec)
	}
	cs.Close()

	q := mustRun(t, "--db", db, "review", "list", "--json")
	for _, s := range statements {
		if !strings.Contains(q, s) || !strings.Contains(q, "embedder_unavailable") {
			t.Errorf("%q is not in the review queue:\n%s", s, q)
		}
	}
	t.Setenv("OLLAMA_HOST", "http://"+o.host) // the killed server's address: nothing listens
	offlineOnOllama(t, db)

	o.start()
	t.Setenv("OLLAMA_HOST", o.url())
	r := mustRun(t, "--db", db, "review", "retry", "--all")
	l := mustRun(t, "--db", db, "list", "--limit", "0")
	for _, s := range statements {
		if !strings.Contains(l, s[:20]) {
			t.Errorf("%q not stored after the retry:\n%s\nretry said:\n%s", s, l, r)
		}
	}
}

// offlineOnOllama runs the commands that must work while the server of a
// database on an Ollama embedder is away: each exits 0, saying at most
// that it works offline (recall lexical only until the server is back).
func offlineOnOllama(t *testing.T, db string) {
	t.Helper()
	for _, args := range [][]string{
		{"list"}, {"show", "1"}, {"recall", "Chungju apples"}, {"recall", "충주 사과", "--json"},
		{"forecast"}, {"audit"}, {"review", "list"}, {"mcp"}, // mcp: start-up, then EOF on stdin
	} {
		out, errs, code := realRun(t, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Errorf("%v with the server killed: exit %d\n%s", args, code, errs)
		} else if strings.Contains(errs, "cannot reach Ollama") && !strings.Contains(errs, "working offline") {
			t.Errorf("%v with the server killed: %s", args, errs)
		}
		if args[0] == "recall" && !strings.Contains(out, "Chungju") && !strings.Contains(out, "충주") {
			t.Errorf("%v with the server killed recalled nothing:\n%s", args, out)
		}
	}
}

// TestRealOllamaKilledMidReembed: a `reembed` whose server is killed
// stops with what it moved kept, every command works offline, and the
// next reembed, with the server back, resumes and finishes.
func TestRealOllamaKilledMidReembed(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.EmbedModel)
	o := startOwnOllama(t)
	t.Setenv("OLLAMA_HOST", o.url())
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "demo", "--no-tui", "--db", db)
	bin := buildMemtrace(t)
	name := "ollama:" + canonicalModel(model)

	cmd := exec.Command(bin, "--db", db, "reembed", "--embedder", "ollama:"+model, "--batch", "1")
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for embedders(t, db)[name] < 5 {
		if time.Now().After(deadline) {
			t.Fatal("reembed moved fewer than 5 rows in 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	o.kill()
	err := cmd.Wait()
	mid := embedders(t, db)
	total := 0
	for _, n := range mid {
		total += n
	}
	t.Logf("killed mid-reembed: %v (%v) %s", mid, err, errb.String())
	if err == nil || mid[name] == total {
		t.Fatalf("the reembed finished before the kill (%v): the test shows nothing", mid)
	}
	t.Setenv("OLLAMA_HOST", "http://"+o.host) // the killed server's address: nothing listens
	offline(t, db)

	o.start()
	t.Setenv("OLLAMA_HOST", o.url())
	st := decodeJSON[ReembedStats](t, mustRun(t, "--db", db, "reembed", "--json"))
	if !st.Resumed || st.Embedder != name || st.Already < 5 {
		t.Fatalf("resume: %+v", st)
	}
	if got := embedders(t, db); got[name] != total {
		t.Fatalf("after the resume: %v, want all %d on %s", got, total, name)
	}
}
