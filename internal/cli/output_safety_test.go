package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is what a hostile Ollama server (or a proxy in front of one)
// answers with: colours, an OSC 52 clipboard write, a window title, a
// screen clear, a bidi override and an 8-bit CSI.
const hostile = "boom \x1b[31mRED\x1b[0m \x1b]52;c;aGFja2Vk\x07 \x1b]0;pwned\x07 \x1b[2J \u202egnp.exe \u009b31m"

// rawControl finds a byte sequence in out that acts on a terminal: a C0
// control other than line feed and tab, DEL, a C1 control, a bidi
// control or a line separator.
func rawControl(out string) (rune, bool) {
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == utf8.RuneError,
			r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		}
	}
	return 0, false
}

func hostileOllama(t *testing.T, status int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/version" {
			w.Write([]byte(`{"version":"0.12.0"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == http.StatusOK {
			// A chat answer that is not a verdict at all.
			b, _ := json.Marshal(map[string]any{"model": "m", "message": map[string]string{"role": "assistant", "content": hostile}, "done": true})
			w.Write(b)
			return
		}
		if status == http.StatusBadGateway {
			w.Write([]byte(hostile)) // a proxy's page, not JSON
			return
		}
		b, _ := json.Marshal(map[string]string{"error": hostile})
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Every output path that can carry a server's own text (#32): ingest
// --judge, triage and judge check print no raw control, whatever the
// server answers.
func TestServerTextNeverReachesTheTerminalRaw(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	msgs := filepath.Join(dir, "m.jsonl")
	line := `{"id":"h1","session":"s1","role":"user","text":"My brother moved to Daegu last year for a new job.","at":"2026-01-01T10:00:00Z"}` + "\n"
	if err := os.WriteFile(msgs, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "--db", db, "ingest", msgs); code != 0 {
		t.Fatalf("ingest: %d %s", code, errOut)
	}
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusOK} {
		t.Setenv("OLLAMA_HOST", hostileOllama(t, status))
		for _, args := range [][]string{
			{"--db", filepath.Join(dir, "judged.db"), "ingest", msgs, "--judge", "llama3"},
			{"--db", db, "triage", "--model", "llama3", "--type", "note"},
			{"--db", db, "judge", "check", "--model", "llama3"},
		} {
			out, errOut, _ := runCLI(t, args...)
			if r, bad := rawControl(out + errOut); bad {
				t.Errorf("HTTP %d, memtrace %s: %U reached the output:\n%q\n%q", status, strings.Join(args, " "), r, out, errOut)
			}
			if status != http.StatusOK && !strings.Contains(out+errOut, "␛[31m") && !strings.Contains(out+errOut, "HTTP") {
				t.Logf("HTTP %d, memtrace %s: the server's text was not shown: %q", status, strings.Join(args, " "), errOut)
			}
		}
	}
}

// A project named with ESC and U+202E (#32): show, export md and
// recall --otel - write no raw control, and export md's file names hold
// none either.
func TestHostileProjectNamesInEveryOutput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	msgs := filepath.Join(dir, "m.jsonl")
	// The JSONL door refuses such a project name now; an MCP client or an
	// older database may still hold one, so add the memory directly.
	if err := os.WriteFile(msgs, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	project := "x\x1b[2Jy\u202eevil"
	if _, errOut, code := runCLI(t, "--db", db, "add", "We deploy the payments service every Thursday afternoon.", "--scope", "project:"+project); code != 0 {
		t.Skipf("add --scope refused the hostile project (%s); nothing to show", strings.TrimSpace(errOut))
	}
	for _, args := range [][]string{
		{"--db", db, "show", "1"},
		{"--db", db, "list"},
		{"--db", db, "recall", "payments deploy Thursday", "--otel", "-"},
		{"--db", db, "export", "md", filepath.Join(dir, "md")},
	} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("memtrace %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		if r, bad := rawControl(out + errOut); bad {
			t.Errorf("memtrace %s: %U reached the output:\n%q", strings.Join(args, " "), r, out)
		}
	}
	err := filepath.WalkDir(filepath.Join(dir, "md"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if r, bad := rawControl(d.Name()); bad {
			t.Errorf("file name %q holds %U", d.Name(), r)
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if r, bad := rawControl(string(b)); bad {
				t.Errorf("%s holds %U", d.Name(), r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
