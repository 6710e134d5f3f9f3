package cli

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"memtrace/internal/version"
)

func TestVersion(t *testing.T) {
	old := [3]string{version.Version, version.Commit, version.Date}
	t.Cleanup(func() { version.Version, version.Commit, version.Date = old[0], old[1], old[2] })
	version.Version, version.Commit, version.Date = "v0.9.1", "89abcdef0123456789ab", "2026-12-01T08:00:00Z"
	want := "memtrace v0.9.1 (commit 89abcdef0123, built 2026-12-01T08:00:00Z)\n"

	for _, args := range [][]string{{"--version"}, {"version"}, {"--db", "nowhere.db", "--version"}} {
		var out, errb bytes.Buffer
		if code := run(t.Context(), args, nil, &out, &errb); code != 0 || out.String() != want {
			t.Fatalf("memtrace %v: exit %d, stdout %q (want %q), stderr %q", args, code, out.String(), want, errb.String())
		}
	}

	var out, errb bytes.Buffer
	if code := run(t.Context(), []string{"version", "--json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("version --json: exit %d: %s", code, errb.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("version --json output %q: %v", out.String(), err)
	}
	for k, v := range map[string]string{"version": "v0.9.1", "commit": "89abcdef0123456789ab", "date": "2026-12-01T08:00:00Z",
		"go": runtime.Version(), "platform": runtime.GOOS + "/" + runtime.GOARCH} {
		if got[k] != v {
			t.Fatalf("version --json %q = %v, want %q (all: %s)", k, got[k], v, out.String())
		}
	}

	out.Reset()
	errb.Reset()
	if code := run(t.Context(), []string{"version", "extra"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: memtrace version") {
		t.Fatalf("version extra: exit %d, stderr %q", code, errb.String())
	}
}
