package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// The demo database, with a rollback, a supersession link, a stored trace
// and a golden run on top, copied SQLite → PostgreSQL → SQLite: list --json,
// batches --json and every memory's audit read the same as the original,
// and both copies report the original's content checksum. A non-empty
// target is refused and left as it was.
func TestCopyRoundTrip(t *testing.T) {
	orig := demoDB(t)
	for _, args := range [][]string{
		{"supersede", "--db", orig, "2", "3"},
		{"recall", "--db", orig, "--commit-access", "커피"},
		{"add", "--db", orig, "--key", "extra", "the release train leaves on Thursdays"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	pg := storetest.PGDSN(t)
	back := filepath.Join(t.TempDir(), "back.db")
	var sums []string
	for _, hop := range [][2]string{{orig, pg}, {pg, back}} {
		out, stderr, code := runCLI(t, "copy", "--from", hop[0], "--to", hop[1], "--json")
		if code != 0 {
			t.Fatalf("copy %s → %s: %s", hop[0], hop[1], stderr)
		}
		var rep store.CopyReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Tables["memories"] < 140 || rep.Tables["audit"] <= rep.Tables["memories"] || rep.Tables["captures"] == 0 || rep.Tables["proposals"] == 0 {
			t.Fatalf("copy %s → %s: %+v", hop[0], hop[1], rep)
		}
		sums = append(sums, rep.SHA256)
	}
	if sums[0] != sums[1] {
		t.Fatalf("checksums differ along the way: %v", sums)
	}
	for _, cmd := range [][]string{{"list", "--json", "--limit", "0"}, {"batches", "--json", "--limit", "0"}, {"proposals", "--json", "--status", "all"}} {
		var outs []string
		for _, db := range []string{orig, pg, back} {
			out, stderr, code := runCLI(t, append(append([]string{}, cmd...), "--db", db)...)
			if code != 0 {
				t.Fatalf("%v on %s: %s", cmd, db, stderr)
			}
			outs = append(outs, out)
		}
		if outs[0] != outs[1] || outs[0] != outs[2] {
			t.Errorf("%v differs between the original, the PostgreSQL copy and the SQLite copy", cmd)
		}
	}
	ctx := context.Background()
	audits := make([]string, 0, 3)
	for _, db := range []string{orig, pg, back} {
		s, _, err := openStoreAt(ctx, db, true)
		if err != nil {
			t.Fatal(err)
		}
		var all []*engine.AuditEntry
		err = s.ForEachMemory(ctx, func(m *engine.Memory) error {
			rows, err := s.AuditForMemory(ctx, m.ID)
			all = append(all, rows...)
			return err
		})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(all)
		audits = append(audits, string(b))
	}
	if audits[0] != audits[1] || audits[0] != audits[2] {
		t.Error("the audit differs between the original and its copies")
	}
	// A copy into a database that has anything is refused, untouched.
	_, stderr, code := runCLI(t, "copy", "--from", back, "--to", pg)
	if code != 1 || !strings.Contains(stderr, "is not empty") {
		t.Fatalf("copy into a non-empty space: exit %d %q", code, stderr)
	}
	if out, _, _ := runCLI(t, "list", "--json", "--limit", "0", "--db", pg); !strings.Contains(out, `"extra"`) {
		t.Fatal("the refused copy changed its target")
	}
}
