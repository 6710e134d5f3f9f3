package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/engine/lexfile"
	"memtrace/recall"
	"memtrace/store"
	"memtrace/store/colfile"
)

// lexiconCorpus is a bilingual conversation: sessions of turns about a few
// topics, so that the context window and the term statistics matter.
func lexiconCorpus(i int) string {
	en := []string{
		"I planted %d tomatoes in the garden after the rain of week %d",
		"We adopted a dog named Biscuit %d days ago, she loves the park near block %d",
		"My sister Caroline runs a marathon every spring; her best time was %d minutes in race %d",
		"Yes, exactly — and the coffee there was the best I had in %d years, cup %d",
		"The quarterly budget review moved to room %d on floor %d",
	}
	ko := []string{
		"충주 사과 %d개를 샀어, 엄마 드리려고 %d번째 박스야",
		"오늘 수진이랑 %d번째 산책을 했어, 공원 %d번 길로",
		"회사 근처 김치찌개 집에서 %d명이 점심을 먹었어 (%d호점)",
	}
	if i%3 == 2 {
		return fmt.Sprintf(ko[i%len(ko)], i, i%11)
	}
	return fmt.Sprintf(en[i%len(en)], i, i%7)
}

// lexiconTestDB writes n memories in sessions of 12 turns.
func lexiconTestDB(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	addLexiconMemories(t, eng, 0, n)
	return path
}

func addLexiconMemories(t *testing.T, eng *engine.Engine, from, to int) {
	t.Helper()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := from; i < to; i++ {
		m := engine.Memory{Key: fmt.Sprintf("lx%04d", i), Content: lexiconCorpus(i), Importance: 0.5,
			Session: fmt.Sprintf("s%d", i/12), CreatedAt: base.Add(time.Duration(i) * time.Minute)}
		if err := eng.AddMemory(context.Background(), &m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
}

var lexiconQueries = []string{
	"tomatoes in the garden", "Did Caroline run a marathon?", "dog adopted park", "coffee", "budget review room",
	"충주 사과 박스", "수진이랑 산책", "김치찌개 점심", "best time race 40", "rain week 3 tomatoes",
}

// recallAll is every query's recall --json (took_ms masked), on the
// lexicon file (on) or with it off (a full open that tokenises every row).
func recallAll(t *testing.T, path string, file string) []string {
	t.Helper()
	t.Setenv(lexfile.FileEnv, file)
	var out []string
	for _, q := range lexiconQueries {
		o, stderr, code := runRecallCLI(t, "--db", path, "recall", q, "--at", "2026-04-01T09:00:00Z", "--json", "--k", "12")
		if code != 0 {
			t.Fatalf("recall %q: exit %d: %s", q, code, stderr)
		}
		out = append(out, tookMS.ReplaceAllString(o, ""))
	}
	return out
}

func sameRecalls(t *testing.T, when string, cold, warm []string) {
	t.Helper()
	for i := range cold {
		if cold[i] != warm[i] {
			t.Errorf("%s: recall %q over the lexicon file differs from a full open's", when, lexiconQueries[i])
		}
	}
}

// A one-shot recall over the lexicon file prints byte for byte what one
// that tokenised every row prints: on the file as written, after another
// process added and rewrote memories (those rows are tokenised), and after
// an erase (the file is gone, then rewritten without the erased memory's
// terms).
func TestRecallOverLexiconFileMatchesFullOpen(t *testing.T) {
	path := lexiconTestDB(t, 420)
	file := path + lexfile.Suffix
	recallAll(t, path, "on") // the first open writes the file
	f, err := lexfile.Open(file)
	if err != nil {
		t.Fatalf("no lexicon file after an open: %v", err)
	}
	if f.Rows() != 420 {
		t.Fatalf("the file holds %d rows", f.Rows())
	}
	f.Close()
	sameRecalls(t, "as written", recallAll(t, path, "on"), recallAll(t, path, "off"))

	// Another process adds memories and rewrites one.
	ctx := context.Background()
	t.Setenv(lexfile.FileEnv, "off")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	sameWarm(t, "as written", recallAll(t, path, "on"), eng) // the warm engine's name book, read once
	addLexiconMemories(t, eng, 420, 470)
	m, ok := eng.MemoryByKey("lx0003")
	if !ok {
		t.Fatal("no lx0003")
	}
	m.Content = "Caroline switched from marathons to ultra trail running, 80 km in the mountains"
	m.Hash = engine.ContentHash(m.Content)
	v, err := eng.Embed(ctx, m.Content)
	if err != nil {
		t.Fatal(err)
	}
	m.Embedding = v[0]
	if err := eng.Update(ctx, func(q engine.Queries) error { return q.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "edit") }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(file)
	cold := recallAll(t, path, "on")
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("51 changed rows of 470 rewrote the file; the test wants them tokenised beside it")
	}
	sameRecalls(t, "after another process wrote", cold, recallAll(t, path, "off"))
	// The warm engine that wrote them: its vector postings posted, its
	// name book kept current from the change log.
	sameWarm(t, "after the writes", cold, eng)
	db.Close()

	// An erase removes the file; the next open writes it without the
	// erased memory's terms.
	secret := "zanzibarite"
	t.Setenv(lexfile.FileEnv, "on")
	db, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng, err = engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	sm := engine.Memory{Key: "secret", Content: "the vault code is kept under the " + secret + " stone", Session: "s1"}
	if err := eng.AddMemory(ctx, &sm, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := lexfile.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runRecallCLI(t, "--db", path, "recall", "tomatoes", "--json"); code != 0 {
		t.Fatal(stderr)
	}
	if raw, _ := os.ReadFile(file); !bytes.Contains(raw, []byte("zanzibar")) {
		t.Fatal("the rewritten lexicon file lacks the new memory's term")
	}
	if _, stderr, code := runRecallCLI(t, "--db", path, "erase", "key:secret", "--reason", "test", "--confirm", "1"); code != 0 {
		t.Fatalf("erase: exit %d: %s", code, stderr)
	}
	if _, err := os.Lstat(file); !os.IsNotExist(err) {
		t.Fatalf("the lexicon file is there after an erase: %v", err)
	}
	cold = recallAll(t, path, "on")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no lexicon file written after the erase: %v", err)
	}
	if bytes.Contains(raw, []byte("zanzibar")) {
		t.Fatal("the lexicon file holds the erased memory's term")
	}
	sameRecalls(t, "after an erase", cold, recallAll(t, path, "off"))

	// An erase by a build that knew no lexicon file leaves it: the next
	// open sees it predates an erasure and rewrites it.
	db, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng, err = engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	sm = engine.Memory{Key: "secret2", Content: "the spare key is under the quokkastone pot", Session: "s2"}
	if err := eng.AddMemory(ctx, &sm, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := lexfile.Remove(file); err != nil {
		t.Fatal(err)
	}
	recallAll(t, path, "on")
	old, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(old, []byte("quokka")) {
		t.Fatalf("the rewritten lexicon file lacks the new memory's term (%v)", err)
	}
	if _, stderr, code := runRecallCLI(t, "--db", path, "erase", "key:secret2", "--reason", "test", "--confirm", "1"); code != 0 {
		t.Fatalf("erase: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(file, old, 0o644); err != nil { // as the older build left it
		t.Fatal(err)
	}
	cold = recallAll(t, path, "on")
	if raw, _ := os.ReadFile(file); bytes.Contains(raw, []byte("quokka")) {
		t.Fatal("a lexicon file older than an erasure was kept as it was")
	}
	sameRecalls(t, "after an older build's erase", cold, recallAll(t, path, "off"))
}

// sameWarm checks the one-shot recalls cold (recall --json in a new
// process: the vector postings unposted, the name book from the index's
// vocabulary) against eng's, a warm engine's, in this process.
func sameWarm(t *testing.T, when string, cold []string, eng *engine.Engine) {
	t.Helper()
	at := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	for i, qtext := range lexiconQueries {
		tr, err := recall.Recall(context.Background(), eng, engine.Query{Text: qtext, K: 12, At: at, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var warm bytes.Buffer
		if err := writeJSONText(&warm, tr); err != nil {
			t.Fatal(err)
		}
		if w := tookMS.ReplaceAllString(warm.String(), ""); cold[i] != w {
			t.Errorf("%s: recall %q: the one-shot recall differs from the warm engine's", when, qtext)
		}
	}
}

// recallColumns is every query's recall --json with the column file on or
// off (off: every column of every row read from SQLite).
func recallColumns(t *testing.T, path, file string) []string {
	t.Helper()
	t.Setenv(colfile.FileEnv, file)
	return recallAll(t, path, "on")
}

// A one-shot recall over the column file prints byte for byte what one
// that read every column prints, and what a warm engine that made the
// writes itself recalls: as written, after another process added, rewrote
// and quarantined memories (those rows are read whole beside the file),
// and after an erase (the file is gone, then written without the erased
// memory).
func TestRecallOverColumnFileMatchesFullOpen(t *testing.T) {
	path := lexiconTestDB(t, 420)
	file := path + colfile.Suffix
	recallColumns(t, path, "on") // the first open writes the file
	f, err := colfile.Open(file)
	if err != nil {
		t.Fatalf("no column file after an open: %v", err)
	}
	if f.Rows() != 420 {
		t.Fatalf("the file holds %d rows", f.Rows())
	}
	f.Close()
	sameRecalls(t, "as written", recallColumns(t, path, "on"), recallColumns(t, path, "off"))

	// Another process adds memories, rewrites one and quarantines one; a
	// warm engine (this one) holds them all.
	ctx := context.Background()
	t.Setenv(colfile.FileEnv, "off")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	addLexiconMemories(t, eng, 420, 470)
	m, ok := eng.MemoryByKey("lx0003")
	if !ok {
		t.Fatal("no lx0003")
	}
	m.Content = "Caroline switched from marathons to ultra trail running, 80 km in the mountains"
	m.Hash = engine.ContentHash(m.Content)
	v, err := eng.Embed(ctx, m.Content)
	if err != nil {
		t.Fatal(err)
	}
	m.Embedding = v[0]
	q, ok := eng.MemoryByKey("lx0010")
	if !ok {
		t.Fatal("no lx0010")
	}
	q.Quarantine()
	if err := eng.Update(ctx, func(qs engine.Queries) error {
		if err := qs.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "edit"); err != nil {
			return err
		}
		return qs.UpdateMemory(ctx, &q, engine.Actor{Name: "test"}, "quarantine")
	}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(file)
	cold := recallColumns(t, path, "on")
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("52 changed rows of 470 rewrote the file; the test wants them read beside it")
	}
	sameRecalls(t, "after another process wrote", cold, recallColumns(t, path, "off"))
	sameWarm(t, "over the column file", cold, eng)

	// An erase removes the file; the next open writes it without the
	// erased memory.
	sm := engine.Memory{Key: "secret-zq", Content: "the vault code is kept under the zanzibarite stone", Session: "secret-session-zq"}
	if err := eng.AddMemory(ctx, &sm, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := colfile.Remove(file); err != nil {
		t.Fatal(err)
	}
	recallColumns(t, path, "on")
	if raw, _ := os.ReadFile(file); !bytes.Contains(raw, []byte("secret-session-zq")) {
		t.Fatal("the rewritten column file lacks the new memory")
	}
	if _, stderr, code := runRecallCLI(t, "--db", path, "erase", "key:secret-zq", "--reason", "test", "--confirm", "1"); code != 0 {
		t.Fatalf("erase: exit %d: %s", code, stderr)
	}
	if _, err := os.Lstat(file); !os.IsNotExist(err) {
		t.Fatalf("the column file is there after an erase: %v", err)
	}
	cold = recallColumns(t, path, "on")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no column file written after the erase: %v", err)
	}
	if sum, _ := hex.DecodeString(sm.Hash); bytes.Contains(raw, sum) {
		t.Fatal("the column file holds the erased memory's hash")
	}
	sameRecalls(t, "after an erase", cold, recallColumns(t, path, "off"))
}
