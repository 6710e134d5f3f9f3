package cli

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/store"
)

// An Ollama server that dies in the middle of a `reembed` of a database
// that never recorded its embedder (a demo database) leaves every command
// working offline: the database still uses the hashed vectors, which need
// no server, the rows already moved keep their Ollama vectors, and
// `--embedder hashed` is the database's own, not refused.
func TestReembedKilledServerLeavesTheDatabaseUsableOffline(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "demo", "--no-tui", "--db", db)
	hashed := engine.NewHashed(engine.HashedDim).Name()
	if setting(t, db, settingEmbedder) != "" {
		t.Fatal("the demo database should not record its embedder (the case of this test)")
	}
	// The probe and two batches of 5 are answered; from then on the server
	// drops every connection mid-call, like a killed process.
	srv.onEmbed = func(n int) {
		if n >= 4 {
			panic(http.ErrAbortHandler)
		}
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--db", db, "reembed", "--embedder", "ollama:tiny-embed", "--batch", "5"}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "reembed stopped at 10 of") || !strings.Contains(errb.String(), "the database still uses "+hashed) {
		t.Fatalf("killed reembed: exit %d\n%s", code, errb.String())
	}
	mid := embedders(t, db)
	if mid["ollama:tiny-embed:latest"] != 10 || mid[hashed] < 10 {
		t.Fatalf("rows after the kill: %v", mid)
	}
	if got := setting(t, db, settingEmbedder); got != hashed {
		t.Fatalf("the database's embedder after the kill: %q, want %q", got, hashed)
	}

	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1") // nothing listens
	offline(t, db)
	// A reembed interrupted by an earlier memtrace left no setting: the
	// rows that have not moved say which embedder the database uses.
	clearSetting(t, db, settingEmbedder)
	offline(t, db)

	// The server back, the next reembed resumes and the database moves.
	srv.onEmbed = nil
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	st := decodeJSON[ReembedStats](t, mustRun(t, "--db", db, "reembed", "--json"))
	if !st.Resumed || st.Already != 10 || st.From != hashed || st.Embedder != "ollama:tiny-embed:latest" {
		t.Fatalf("resume: %+v", st)
	}
	if got := setting(t, db, settingEmbedder); got != "ollama:tiny-embed:latest" {
		t.Fatalf("embedder after the resume: %q", got)
	}
}

// offline runs the commands that must work with no embedding server.
func offline(t *testing.T, db string) {
	t.Helper()
	var out, errb bytes.Buffer
	for _, args := range [][]string{
		{"list"},
		{"show", "1"},
		{"recall", "충주 사과"},
		{"recall", "--embedder", "hashed", "apples"},
		{"forecast"},
		{"audit"},
		{"mcp"}, // start-up, then EOF on stdin
	} {
		errb.Reset()
		out.Reset()
		if code := run(context.Background(), append([]string{"--db", db}, args...), strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%v offline mid-reembed: exit %d\n%s", args, code, errb.String())
		} else if strings.Contains(errb.String(), "cannot reach Ollama") {
			t.Errorf("%v offline: %s", args, errb.String())
		}
	}
}

func clearSetting(t *testing.T, path, key string) {
	t.Helper()
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetSetting(context.Background(), key, ""); err != nil {
		t.Fatal(err)
	}
}
