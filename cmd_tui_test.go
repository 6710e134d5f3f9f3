package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			for _, s := range []string{"no database at " + want, "memtrace demo", "memtrace ingest FILE.jsonl"} {
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
