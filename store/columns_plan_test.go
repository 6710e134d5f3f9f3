package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The load that takes the other columns from the column file reads id, seq
// and content from the covering index memories_text, not the table (whose
// pages also hold the vector blobs): at 100k memories about 8 MB of index
// pages instead of 240 MB of table. The load with the blobs (no vector
// file) still scans the table.
func TestColumnQueryReadsTheTextIndex(t *testing.T) {
	db := openTestDB(t, filepath.Join(t.TempDir(), "m.db"))
	plan := func(q string) string {
		t.Helper()
		rows, err := db.reader.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			out = append(out, detail)
		}
		return strings.Join(out, "; ")
	}
	if p := plan(columnQuery(false)); !strings.Contains(p, "COVERING INDEX memories_text") {
		t.Fatalf("the column load without blobs: plan %q, want the covering index memories_text", p)
	}
	if p := plan(columnQuery(true)); strings.Contains(p, "memories_text") {
		t.Fatalf("the column load with blobs: plan %q, want the table", p)
	}
}
