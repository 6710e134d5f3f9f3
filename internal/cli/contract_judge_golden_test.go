package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"memtrace/internal/testdata/ollamatest"
)

// formatRecorder stands between the judge and the recorded Ollama server
// and keeps the `format` of every /api/chat request as it went over the
// wire: the judge schemas as the server receives them.
type formatRecorder struct {
	mu      sync.Mutex
	formats map[string]bool
}

func (f *formatRecorder) wrap(t *testing.T, upstream *ollamatest.Server) *httptest.Server {
	proxy := httputil.NewSingleHostReverseProxy(upstream.URL())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/chat" {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var req struct {
				Format json.RawMessage `json:"format"`
			}
			if err := json.Unmarshal(body, &req); err != nil {
				t.Errorf("a chat request is not JSON: %v", err)
			}
			f.mu.Lock()
			f.formats[string(req.Format)] = true
			f.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// take returns the formats seen since the last take, one a line, sorted
// (a command may judge concurrently), and forgets them.
func (f *formatRecorder) take() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	lines := make([]string, 0, len(f.formats))
	for s := range f.formats {
		lines = append(lines, s)
	}
	f.formats = map[string]bool{}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

// backupDBHash matches the checksum of a backup's SQLite file, which holds
// the wall-clock times its migrations ran (the clock is pinned after they
// run), so it differs between runs; the JSON dump's checksum does not.
var backupDBHash = regexp.MustCompile(`("db_sha256"\s*:\s*)"[0-9a-f]{64}"`)

// The judge's contracts with the server and with scripts: the schemas sent
// as `format` by each command that asks the judge (capture, with and
// without the stored memories a change may update; triage; promotion
// review; the check's probe), byte for byte as sent, and those commands'
// --json output on a pinned clock (the temporary directory written as
// $TMP, the server's address as $OLLAMA_HOST, the backup file's checksum
// as $SHA256).
func TestJudgeContractGoldens(t *testing.T) {
	var answer atomic.Value // the recording the server replays, set by each step
	upstream := ollamatest.New(t, func(string) string { return answer.Load().(string) })
	rec := &formatRecorder{formats: map[string]bool{}}
	host := rec.wrap(t, upstream).URL
	t.Setenv("OLLAMA_HOST", host)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "judge.db")
	m := ollamatest.Model
	steps := []struct {
		answer, golden, formats string
		args                    []string
	}{
		{"", "", "", []string{"ingest", "-", "--json"}},
		{"", "", "", []string{"clock", contractClock}},
		{"chat_capture_store.ndjson", "judge_ingest.json", "judge_formats_ingest.jsonl",
			[]string{"ingest", filepath.Join(contractDir, "fixture_judge.jsonl"), "--judge", m, "--json"}},
		{"chat_capture_update.ndjson", "judge_ingest_update.json", "judge_formats_ingest_update.jsonl",
			[]string{"ingest", filepath.Join(contractDir, "fixture_judge_update.jsonl"), "--judge", m, "--json"}},
		{"chat_triage_keep.ndjson", "judge_triage.json", "judge_formats_triage.jsonl",
			[]string{"triage", "--type", "preference", "--model", m, "--json",
				"--verdicts", filepath.Join(tmp, "verdicts.jsonl"), "--backup-dir", filepath.Join(tmp, "backups"), "--cache", filepath.Join(tmp, "cache.jsonl")}},
		{"chat_promotion_promote.ndjson", "judge_heartbeat_review.json", "judge_formats_heartbeat_review.jsonl",
			[]string{"heartbeat", "--review", "--model", m, "--json"}},
		{"chat_probe_ok.ndjson", "judge_check.json", "judge_formats_check.jsonl", []string{"judge", "check", "--model", m, "--json"}},
	}
	for _, s := range steps {
		answer.Store(s.answer)
		args := append([]string{"--db", db}, s.args...)
		out, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		if s.golden != "" {
			out = strings.NewReplacer(tmp, "$TMP", host, "$OLLAMA_HOST").Replace(out)
			checkContractGolden(t, s.golden, args, backupDBHash.ReplaceAll([]byte(out), []byte(`${1}"$$SHA256"`)))
		}
		if s.formats != "" {
			checkContractGolden(t, s.formats, args, rec.take())
		}
	}
}
