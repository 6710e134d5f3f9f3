package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/recall"
)

// Issue 31's acceptance of erase, through the commands a curator runs: a
// memory (English, with a Korean sibling message) captured by the judge
// with a verdict cache and an Ollama embedder, captured again (reinforced),
// recalled with its trace stored and into an --otel file, exported as
// Markdown and updated twice, is erased with `memtrace erase`. Then no
// distinctive byte sequence of any of its texts is in the SQLite file, its
// WAL (read raw, and through strings(1) when it is installed) or the judge
// cache (whose entries of the other memory stay); `batches` lists the
// erasure as not undoable, `show` prints the tombstone, and rolling back
// every earlier batch does not bring the text back.
func TestEraseThroughTheCommands(t *testing.T) {
	upstream := ollamatest.New(t, func(string) string { return "chat_capture_store.ndjson" })
	rec := &wireRecorder{}
	t.Setenv("OLLAMA_HOST", rec.serve(t, upstream).URL)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "e.db")
	cache := filepath.Join(tmp, "judge-cache.jsonl")
	const (
		erasedEN = "Jun's gym locker combination is zebra-orchid 5521 on the top row"
		erasedKO = "준의 헬스장 사물함 조합은 얼룩말-난초 5521 이고 맨 윗줄이야"
		kept     = "Mina prefers green tea with honey in the afternoon"
	)
	marks := []string{"zebra-orchid", "얼룩말-난초", "locker combination", "헬스장 사물함"}
	writeMsgs := func(name string, msgs ...[2]string) string {
		var lines []string
		for _, m := range msgs {
			b, _ := json.Marshal(map[string]string{"id": m[0], "session": "s1", "role": "user", "text": m[1], "at": "2026-05-01T10:00:00Z"})
			lines = append(lines, string(b))
		}
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	judged := []string{"--judge", ollamatest.Model, "--judge-cache", cache}
	ingest := func(file string) {
		mustRunCLI(t, append([]string{"--db", db, "--embedder", "ollama:all-minilm", "ingest", file}, judged...)...)
	}
	ingest(writeMsgs("a.jsonl", [2]string{"jun-1", erasedEN}, [2]string{"jun-ko", erasedKO}, [2]string{"mina-1", kept}))
	ingest(writeMsgs("b.jsonl", [2]string{"jun-2", erasedEN})) // the same again: reinforced

	mustRunCLI(t, "--db", db, "recall", "Jun gym locker combination", "--otel", filepath.Join(tmp, "spans.jsonl"), "--otel-content")
	mustRunCLI(t, "--db", db, "export", "md", filepath.Join(tmp, "md"))
	ctx := context.Background()
	eng, _, closeDB, err := openEngineAt(ctx, db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := recall.Recall(ctx, eng, engine.Query{Text: "Jun gym locker", At: eng.Now(), K: 20, Budget: 20000, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recall.Keep(ctx, eng, tr, "Jun gym locker", "s1", "mcp", 10); err != nil {
		t.Fatal(err)
	}
	var target, other *engine.Memory
	ms, _, err := eng.Store().FindMemories(ctx, engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		switch m.Content {
		case erasedEN:
			target = m
		case kept:
			other = m
		}
	}
	if target == nil || other == nil {
		t.Fatalf("ingest did not store the two memories: %+v", ms)
	}
	// A curator's edits: two new wordings, each its own audited batch.
	for _, text := range []string{erasedEN + " (since May)", erasedEN + " (since June)"} {
		err := eng.Store().Update(ctx, func(q engine.Queries) error {
			b, err := q.NextBatchID(ctx, engine.ActorCurator)
			if err != nil {
				return err
			}
			m, err := q.GetMemory(ctx, target.ID)
			if err != nil {
				return err
			}
			m.Content, m.Hash = text, engine.ContentHash(text)
			return q.UpdateMemory(ctx, m, engine.Actor{Name: engine.ActorCurator, Batch: b}, "update")
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	closeDB()
	before := readAll(t, db, db+"-wal", cache)
	if !bytes.Contains(before, []byte("zebra-orchid")) || !bytes.Contains(readAll(t, cache), []byte(`"texts"`)) {
		t.Fatal("before the erasure the file or the cache holds no trace of the memory: the test reaches nothing")
	}

	ko := keyOf(t, db, erasedKO)
	out := mustRunCLI(t, "--db", db, "erase", "key:"+target.Key, "key:"+ko, "--reason", "the user asked", "--confirm", "2", "--json")
	var rep engine.EraseReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rep.Erased) != 2 || rep.Reversible || len(rep.Pending) > 0 || rep.Scrubbed[engine.ArtifactJudgeCache] == 0 {
		t.Fatalf("erase report %+v", rep)
	}
	for _, a := range rep.Artifacts {
		if a.Kind == engine.ArtifactJudgeCache {
			t.Errorf("the judge cache is listed as still holding the text: %+v", a)
		}
	}
	assertErased(t, marks, db, db+"-wal", cache)
	erasedHashes := map[string]bool{engine.ContentHash(erasedEN): true, engine.ContentHash(erasedKO): true}
	left := 0
	for line := range bytes.Lines(readAll(t, cache)) {
		var e struct{ Texts []string }
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		for _, h := range e.Texts {
			left++
			if erasedHashes[h] {
				t.Errorf("the judge cache keeps an entry of an erased text: %s", line)
			}
		}
	}
	if left == 0 {
		t.Error("the erasure emptied the whole judge cache: the other memory's entries should stay")
	}

	show := mustRunCLI(t, "--db", db, "show", "key:"+target.Key)
	if !strings.Contains(show, "erased") || !strings.Contains(show, "the user asked") || !strings.Contains(show, "salted sha256") {
		t.Errorf("show does not print the tombstone:\n%s", show)
	}
	var bs struct {
		Batches []engine.BatchInfo `json:"batches"`
	}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "batches", "--json")), &bs); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range bs.Batches {
		if b.Batch == rep.Batch {
			found = b.Effect.Erased == 2 && !b.CanRollback
		}
	}
	if !found {
		t.Errorf("batches does not list erasure %s as 2 erased, not undoable: %+v", rep.Batch, bs.Batches)
	}
	if _, _, code := runCLI(t, "--db", db, "rollback", rep.Batch, "--yes"); code == 0 {
		t.Error("the erasure was rolled back")
	}
	for _, b := range bs.Batches {
		if b.Batch != rep.Batch {
			runCLI(t, "--db", db, "rollback", b.Batch, "--yes", "--force") // refused or not: nothing may come back
		}
	}
	if show := mustRunCLI(t, "--db", db, "show", "key:"+target.Key, "--json"); !strings.Contains(show, `"status": "erased"`) {
		t.Errorf("after the rollbacks the memory is no longer a tombstone:\n%s", show)
	}
	assertErased(t, marks, db, db+"-wal", cache)
}

// keyOf is the key of the memory whose content is text.
func keyOf(t *testing.T, db, text string) string {
	t.Helper()
	var ms []engine.Memory
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "list", "--json", "--limit", "1000")), &ms); err != nil {
		var wrapped struct {
			Memories []engine.Memory `json:"memories"`
		}
		if err2 := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "list", "--json", "--limit", "1000")), &wrapped); err2 != nil {
			t.Fatal(err, err2)
		}
		ms = wrapped.Memories
	}
	for _, m := range ms {
		if m.Content == text {
			return m.Key
		}
	}
	t.Fatalf("no memory holds %q", text)
	return ""
}

func readAll(t *testing.T, paths ...string) []byte {
	t.Helper()
	var all []byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// assertErased fails for each mark found in a file, read raw and, where
// strings(1) is installed, as it prints the file.
func assertErased(t *testing.T, marks []string, paths ...string) {
	t.Helper()
	stringsBin, _ := exec.LookPath("strings")
	if stringsBin == "" {
		t.Log("strings(1) is not installed: the files are checked raw only")
	}
	for _, p := range paths {
		raw := readAll(t, p)
		var printed []byte
		if stringsBin != "" && len(raw) > 0 {
			var err error
			if printed, err = exec.Command(stringsBin, "-a", p).Output(); err != nil {
				t.Fatalf("strings %s: %v", p, err)
			}
		}
		for _, m := range marks {
			for _, form := range []string{m, jsonForm(m)} {
				if bytes.Contains(raw, []byte(form)) || bytes.Contains(printed, []byte(form)) {
					t.Errorf("%s still holds %q after the erasure", filepath.Base(p), form)
				}
			}
		}
	}
}

// erase --subject lists the memories whose own text names the subject —
// English, and Korean with a particle on the name — and not a neighbour
// the lexical index scores by the conversation around it.
func TestEraseSubjectNamesOnlyItsOwn(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	msgs := `{"id":"a","session":"s","role":"user","text":"My sister Jiyeon lives in Busan and works as a nurse.","at":"2026-05-01T10:00:00Z"}
{"id":"b","session":"s","role":"user","text":"She is flying to Jeju with me in August for two weeks.","at":"2026-05-01T10:01:00Z"}
{"id":"c","session":"s","role":"user","text":"다음 주에 지연이가 서울 올라와서 같이 충주 가기로 했어.","at":"2026-05-01T10:02:00Z"}
{"id":"d","session":"s","role":"user","text":"I had cold noodles for lunch at the office today.","at":"2026-05-01T10:03:00Z"}
`
	if code, _, errOut := runMemtrace(t, msgs, "--db", db, "ingest", "-"); code != 0 {
		t.Fatal(errOut)
	}
	for subject, want := range map[string][]string{"Jiyeon": {"Jiyeon lives"}, "지연": {"지연이가"}} {
		out := mustRunCLI(t, "--db", db, "erase", "--subject", subject, "--dry-run")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("erase --subject %s does not list %q:\n%s", subject, w, out)
			}
		}
		for _, not := range []string{"Jeju", "noodles"} {
			if strings.Contains(out, not) {
				t.Errorf("erase --subject %s lists a memory that does not name it (%q):\n%s", subject, not, out)
			}
		}
	}
}
