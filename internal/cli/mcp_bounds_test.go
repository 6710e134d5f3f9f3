package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vmHWM is the peak resident set of process pid, from /proc, in kB.
func vmHWM(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("SKIPPED: no /proc/%d/status to read the peak RSS from (%v): the bound is measured on Linux only", pid, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return n
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// TestMCPPipelinedCallsStayBounded: 4,000 memory_recall calls written at
// once to `memtrace mcp` on stdin are all answered, each with its id,
// while the server's peak RSS stays under 200 MB: calls beyond the
// in-flight limit wait unread instead of all running at once (1,358 MB
// before the limit).
func TestMCPPipelinedCallsStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 4,000 recalls through a real memtrace mcp take a while")
	}
	const calls, limitKB = 4000, 200 << 10
	bin := buildMemtrace(t)
	db := filepath.Join(t.TempDir(), "bounded.db")
	if out, err := exec.Command(bin, "--db", db, "demo", "--no-tui").CombinedOutput(); err != nil {
		t.Fatalf("demo: %v %s", err, out)
	}
	cmd := exec.Command(bin, "mcp", "--db", db)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	go func() {
		w := bufio.NewWriter(stdin)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		queries := []string{"what is Seoyeon allergic to?", "which port does the staging PostgreSQL database use?", "서연이 땅콩 알레르기", "garden app deployment"}
		for i := 1; i <= calls; i++ {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":%q,"read_only":true}}}`+"\n", i, queries[i%len(queries)])
		}
		w.Flush()
	}()
	start := time.Now()
	seen := map[int]bool{}
	r := bufio.NewReaderSize(stdout, 1<<20)
	for len(seen) < calls+1 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d answers: %v", len(seen), err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Error  json.RawMessage `json:"error"`
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.ID == nil || m.Error != nil || m.Result.IsError || seen[*m.ID] {
			t.Fatalf("answer %.300q (%v)", line, err)
		}
		seen[*m.ID] = true
	}
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("%d pipelined recalls answered in %s; peak RSS %d MB", calls, time.Since(start).Round(time.Millisecond), peak>>10)
	if peak > limitKB {
		t.Errorf("peak RSS %d MB, want under %d MB", peak>>10, limitKB>>10)
	}
}
