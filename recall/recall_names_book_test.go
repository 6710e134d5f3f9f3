package recall_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/recall"
)

// The name book takes its Hangul terms from the lexical index's vocabulary
// and reads only the texts that can write a Latin name: it must equal the
// book read from every text, word by word — at the first recall, after new
// memories (the change log), after a quarantine (read again) and in
// another engine opened over the same database.
func TestNameBookFromVocabularyEqualsTexts(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/names.db"
	e, _ := enginetest.Open(t, path, enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	mk := func(key, text string, st engine.Status) engine.Memory {
		return enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, Status: st, Session: "names", CreatedAt: enginetest.DemoNow.Add(-48 * 3600e9)})
	}
	mk("wife", "my wife Sena and I finally booked the wedding photos", engine.StatusActive)
	mk("brother", "Doyun's younger brother Taeho moved to Daejeon. Taeho likes 종합백신 jokes", engine.StatusActive)
	mk("pet", "우리 토끼 모찌 이빨 다듬으러 동물병원 다녀옴, Mochi는 괜찮아", engine.StatusActive)
	mk("accents", "we met Émile at the café; our cat Élodie hid", engine.StatusActive)
	q := mk("hidden", "our dog Bori and 보리차 at 보리네 — 숨김병원 이야기", engine.StatusQuarantined)
	for i := range 9 { // a head in more compounds than maxCompounds is a suffix
		mk(fmt.Sprintf("suffix%d", i), fmt.Sprintf("오늘 %c%c하기 연습", '가'+rune(i*29), '나'+rune(i*7)), engine.StatusActive)
	}
	check := func(when string, e *engine.Engine) {
		t.Helper()
		got, want := recall.NameBookDump(e), recall.NameBookFromTexts(e)
		if got != want {
			t.Fatalf("%s: the book differs from the one read from every text:\n--- book\n%s\n--- texts\n%s", when, got, want)
		}
		if len(want) < 200 {
			t.Fatalf("%s: a book of %d bytes reads next to nothing:\n%s", when, len(want), want)
		}
	}
	check("first recall", e)
	mk("later", "Sena는 내일 세나 동물병원에 간대. Our friend Jiho came too", engine.StatusActive)
	mk("later2", "my husband Minho said 민호 would cook", engine.StatusActive)
	check("after new memories", e)
	m, _ := e.Memory(q.ID)
	m.Status = engine.StatusActive
	if err := e.Update(ctx, func(qs engine.Queries) error { return qs.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "restore") }); err != nil {
		t.Fatal(err)
	}
	check("after a restore", e)
	m.Status, m.OrigType = engine.StatusQuarantined, m.Type
	if err := e.Update(ctx, func(qs engine.Queries) error {
		return qs.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "quarantine")
	}); err != nil {
		t.Fatal(err)
	}
	check("after a quarantine", e)
	// An erasure leaves a tombstone row: the names its text gave the book
	// go with the text (the book is read again, as for a quarantine).
	gone := mk("erased", "our parrot Zorbagel and 조르바겔 went to 앵무새병원", engine.StatusActive)
	check("before an erase", e)
	if !strings.Contains(recall.NameBookDump(e), "zorbagel") {
		t.Fatal("the book lacks the name about to be erased")
	}
	gm, _ := e.Memory(gone.ID)
	if _, err := curate.Erase(ctx, e.Store(), []*engine.Memory{&gm}, "test", "test"); err != nil {
		t.Fatal(err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	check("after an erase", e)
	if d := recall.NameBookDump(e); strings.Contains(d, "zorbagel") || strings.Contains(d, "조르바겔") {
		t.Fatal("the book keeps an erased memory's names")
	}
	other, err := engine.Open(ctx, engine.Options{Store: e.Store(), Now: e.Now})
	if err != nil {
		t.Fatal(err)
	}
	check("another engine", other)
}
