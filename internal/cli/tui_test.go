package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTUIWithoutDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  string
	}{
		{"NoArguments", nil, ""},
		{"EnvDB", nil, "from-env.db"},
		{"FlagDB", []string{"--db", "flag.db"}, ""},
		{"TuiCommand", []string{"tui", "--db", "flag.db"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("MEMTRACE_DB", tc.env)
			want := "memtrace.db"
			switch {
			case tc.env != "":
				want = tc.env
			case len(tc.args) > 0:
				want = "flag.db"
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			if code == 0 {
				t.Fatalf("exit 0 without a database; stderr %q", stderr.String())
			}
			msg := stderr.String()
			for _, s := range []string{"no database at " + want, "memtrace demo --no-tui --db " + want, "memtrace ingest --db " + want + " FILE.jsonl"} {
				if !strings.Contains(msg, s) {
					t.Errorf("stderr %q lacks %q", msg, s)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, want)); !os.IsNotExist(err) {
				t.Errorf("the TUI created %s (stat: %v); it must only open existing databases", want, err)
			}
		})
	}
}

// The TUI's command closes what a background open made, waits for an open
// that is running, and never waits for one that did not begin.
func TestBackgroundOpen(t *testing.T) {
	ctx := context.Background()
	var never backgroundOpen
	never.close() // returns at once
	if never.begin(ctx) {
		t.Fatal("an open began after close")
	}

	var op backgroundOpen
	if !op.begin(ctx) {
		t.Fatal("the open could not begin")
	}
	closed := make(chan struct{})
	go func() { op.close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("close did not wait for the running open")
	case <-time.After(50 * time.Millisecond):
	}
	n := 0
	op.end(func() { n++ })
	<-closed
	if n != 1 {
		t.Fatalf("closed %d times", n)
	}
}
