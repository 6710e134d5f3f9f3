package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/capture"
	"memtrace/engine"
)

// --secrets hold: a message holding a secret value (English or Korean) is
// held in the review queue with its raw text, for the curator to see; the
// memories, the capture log and the judge never get the value; review
// store keeps the placeholders, review skip drops it, and after either the
// queue keeps only the redacted text — and after erase --compact no byte of
// the values is left in the file or its WAL. A wrong mode says what to use.
func TestSecretsHold(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "h.db")
	values := []string{"Marigold!2291", "qwer1234!!"}
	msgs := `{"id":"en","session":"s","role":"user","text":"my password is Marigold!2291 if you need to log into the test box","at":"2026-05-01T10:00:00Z"}
{"id":"ko","session":"s","role":"user","text":"회사 메일 비번 qwer1234!! 로 바꿨어","at":"2026-05-01T10:01:00Z"}
{"id":"plain","session":"s","role":"user","text":"I moved to Busan last spring and love the sea","at":"2026-05-01T10:02:00Z"}
`
	if code, _, errOut := runMemtrace(t, msgs, "--db", db, "ingest", "-", "--secrets", "keep"); code == 0 || !strings.Contains(errOut, "want redact or hold") {
		t.Errorf("--secrets keep: exit %d, %q", code, errOut)
	}
	code, out, errOut := runMemtrace(t, msgs, "--db", db, "ingest", "-", "--secrets", "hold", "--json")
	if code != 0 {
		t.Fatalf("ingest: %d %s", code, errOut)
	}
	var st engine.IngestStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.NeedsReview != 2 || st.Stored != 1 || st.Redacted["password"] != 1 || st.Redacted["password_ko"] != 1 {
		t.Fatalf("ingest --secrets hold: %+v", st)
	}
	var q struct {
		Items []engine.ReviewItem `json:"items"`
	}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "review", "list", "--json")), &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 {
		t.Fatalf("review queue %+v, want the two held messages", q.Items)
	}
	ids := map[string]int64{}
	for i, it := range q.Items {
		ids[it.MessageID] = it.ID
		if !strings.Contains(it.Text, values[0]) && !strings.Contains(it.Text, values[1]) {
			t.Errorf("item %d does not show the curator the raw text: %q", i, it.Text)
		}
		if !strings.Contains(it.Reason, "--secrets hold") || !strings.Contains(it.Reason, "password") {
			t.Errorf("item %d reason %q does not say why", i, it.Reason)
		}
	}
	noValue := func(where, s string) {
		t.Helper()
		for _, v := range values {
			if strings.Contains(s, v) {
				t.Errorf("%s holds %q", where, v)
			}
		}
	}
	noValue("list", mustRunCLI(t, "--db", db, "list", "--json", "--limit", "0"))
	ctx := context.Background()
	eng, _, closeDB, err := openEngineAt(ctx, db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	caps, _, err := eng.Store().FindCaptures(ctx, engine.CaptureFilter{})
	closeDB()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range caps {
		b, _ := json.Marshal(c)
		noValue("the capture log", string(b))
		if c.MessageID != "plain" && (c.Reason != capture.ReasonSecretHeld || !strings.Contains(c.Text, "[secret:password]")) {
			t.Errorf("capture %s: %+v", c.MessageID, c)
		}
	}

	mustRunCLI(t, "--db", db, "review", "store", itoa(ids["en"]))
	mustRunCLI(t, "--db", db, "review", "skip", itoa(ids["ko"]), "--reason", "a password, not a memory")
	noValue("the review queue after the decisions", mustRunCLI(t, "--db", db, "review", "list", "--status", "all", "--json"))
	if l := mustRunCLI(t, "--db", db, "list", "--json", "--limit", "0"); !strings.Contains(l, "my password is [secret:password] if you need") {
		t.Errorf("review store did not keep the statement with its placeholder:\n%s", l)
	}
	mustRunCLI(t, "--db", db, "erase", "--compact")
	raw := readAll(t, db, db+"-wal")
	for _, v := range values {
		if bytes.Contains(raw, []byte(v)) {
			t.Errorf("the database file keeps %q after the decisions and erase --compact", v)
		}
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
}
