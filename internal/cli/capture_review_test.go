package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
)

// mustRun runs memtrace with args and fails the test on a non-zero exit.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("memtrace %s: exit %d: %s%s", strings.Join(args, " "), code, errb.String(), out.String())
	}
	return out.String()
}

func decodeJSON[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// A message the judge holds as needs_review during `ingest --judge` is
// never lost: it waits in the review queue, a re-run of the ingest does
// not take it for captured-and-done, and it becomes a memory afterwards —
// by the judge on a retry or by a curator's hand — without touching the
// database by hand.
func TestReviewQueueHeldCaptureBecomesMemory(t *testing.T) {
	var healthy atomic.Bool
	srv := ollamatest.New(t, func(text string) string {
		switch {
		case !healthy.Load():
			return "chat_capture_invalid.ndjson"
		case strings.Contains(text, "Busan"):
			return "chat_capture_invalid.ndjson" // this one stays unjudgeable
		default:
			return "chat_capture_store.ndjson"
		}
	})
	t.Setenv("OLLAMA_HOST", srv.URL().String())
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	lines := []string{
		`{"id":"r1","session":"s1","role":"user","text":"I am allergic to peanuts, so never suggest satay or peanut sauce.","at":"2026-03-01T09:00:00Z"}`,
		`{"id":"r2","session":"s1","role":"user","text":"I moved to Busan last spring and I walk along Haeundae every morning.","at":"2026-03-01T09:05:00Z"}`,
		`{"id":"r3","session":"s1","role":"assistant","text":"HEARTBEAT_OK","at":"2026-03-01T09:06:00Z"}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")

	st := decodeJSON[engine.IngestStats](t, mustRun(t, "--db", db, "ingest", "--judge", ollamatest.Model, "--json", in))
	sum := st.Stored + st.Reinforced + st.Dropped["l1"] + st.Dropped["l2"] + st.Dropped["judge"] + st.Skipped + st.NeedsReview
	if st.Offered != 3 || st.NeedsReview != 2 || st.Stored != 0 || st.Dropped["judge"] != 0 || st.JudgeErrors != 0 || sum != st.Offered {
		t.Fatalf("first ingest: %+v (sum %d)", st, sum)
	}
	// The judge is healthy now, but an ingest run again skips what it
	// offered before: only the queue can bring the held messages back.
	healthy.Store(true)
	st = decodeJSON[engine.IngestStats](t, mustRun(t, "--db", db, "ingest", "--judge", ollamatest.Model, "--json", in))
	if st.Skipped != 3 || st.Stored != 0 {
		t.Fatalf("second ingest: %+v", st)
	}
	type list struct {
		Items []engine.ReviewItem `json:"items"`
		Total int                 `json:"total"`
	}
	l := decodeJSON[list](t, mustRun(t, "--db", db, "review", "list", "--json"))
	if l.Total != 2 || l.Items[0].MessageID != "r1" || l.Items[1].MessageID != "r2" || l.Items[0].Status != engine.ReviewHeld ||
		!strings.Contains(l.Items[0].Reason, "rejected twice") || l.Items[0].Judge != "judge:ollama:"+ollamatest.Model {
		t.Fatalf("queue: %+v", l)
	}
	human := mustRun(t, "--db", db, "review")
	if !strings.Contains(human, "peanuts") || !strings.Contains(human, "review retry") {
		t.Fatalf("review list:\n%s", human)
	}

	// Retry: r1 is stored by the judge, r2 is held again.
	rs := decodeJSON[ReviewRetryStats](t, mustRun(t, "--db", db, "review", "retry", "--all", "--judge", ollamatest.Model, "--json"))
	if rs.Offered != 2 || rs.Stored != 1 || rs.NeedsReview != 1 || rs.Batch == "" {
		t.Fatalf("retry: %+v", rs)
	}
	m := decodeJSON[struct{ Memory engine.Memory }](t, mustRun(t, "--db", db, "show", "key:r1", "--json")).Memory
	if !strings.Contains(m.Content, "peanuts") || m.Status != engine.StatusActive {
		t.Fatalf("r1 after retry: %+v", m)
	}
	l = decodeJSON[list](t, mustRun(t, "--db", db, "review", "list", "--status", "all", "--json"))
	r1, r2 := l.Items[0], l.Items[1]
	if r1.Status != engine.ReviewStored || r1.MemoryID != m.ID || r1.Batch != rs.Batch || r2.Status != engine.ReviewHeld || r2.Attempts != 2 {
		t.Fatalf("after retry: %+v", l.Items)
	}

	// The curator skips r2, thinks again, and stores it by hand.
	sk := decodeJSON[capture.ReviewDecision](t, mustRun(t, "--db", db, "review", "skip", "--reason", "chit-chat", "--json", itoa(r2.ID)))
	if sk.Items[0].Status != engine.ReviewSkipped || sk.Items[0].Note != "chit-chat" || !strings.HasPrefix(sk.Batch, "review-skip-") {
		t.Fatalf("skip: %+v", sk)
	}
	sd := decodeJSON[capture.ReviewDecision](t, mustRun(t, "--db", db, "review", "store", "--type", "date", "--kind", "fact", "--json", itoa(r2.ID)))
	if sd.Items[0].Status != engine.ReviewStored || sd.Items[0].MemoryID == 0 || !strings.HasPrefix(sd.Batch, "review-store-") {
		t.Fatalf("store: %+v", sd)
	}
	m2 := decodeJSON[struct{ Memory engine.Memory }](t, mustRun(t, "--db", db, "show", "key:r2", "--json")).Memory
	if m2.Type != "date" || !strings.Contains(m2.Content, "Busan") {
		t.Fatalf("r2 stored by hand: %+v", m2)
	}
	// A decided item is not decided twice, and the hand store is undone
	// by its batch like any curator write.
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--db", db, "review", "store", itoa(r2.ID)}, strings.NewReader(""), &out, &errb); code != 1 || !strings.Contains(errb.String(), "stored already") {
		t.Fatalf("second store: exit %d %s", code, errb.String())
	}
	rb := decodeJSON[map[string]any](t, mustRun(t, "--db", db, "rollback", sd.Batch, "--yes", "--json"))
	if rb["restored"] != float64(1) {
		t.Fatalf("rollback: %v", rb)
	}
}

func TestReviewUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "--db", db, "add", "a memory so the database exists")
	for _, args := range [][]string{
		{"review", "retry", "--judge", "m"},     // nothing named
		{"review", "store"},                     // no ids
		{"review", "skip", "x"},                 // not an id
		{"review", "list", "--status", "maybe"}, // bad status
		{"review", "frobnicate"},                // unknown action
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), append([]string{"--db", db}, args...), strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: memtrace review") {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--db", db, "review", "skip", "7"}, strings.NewReader(""), &out, &errb); code != 1 || !strings.Contains(errb.String(), "review item 7 does not exist") {
		t.Errorf("skip missing: exit %d, %q", code, errb.String())
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
