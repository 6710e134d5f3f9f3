package capture

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestWordSetMatchesHasWord: for every entry of the supersession and type
// tables, the word set reports it exactly when hasWord finds it — over the
// demo conversation (lexNorm'd and raw), and random texts made of the
// entries' words, their pieces, odd spacing and punctuation.
func TestWordSetMatchesHasWord(t *testing.T) {
	var entries []string
	for _, s := range subjectTable() {
		entries = append(entries, s.words...)
	}
	entries = append(entries, personWords...)
	for _, tt := range typeTables() {
		entries = append(entries, tt.lex.en...)
		entries = append(entries, tt.lex.ko...)
	}
	entries = append(entries, "a-b", "Car", "x y*")
	ws := newWordSet(entries)
	var texts []string
	for _, text := range demoTexts(t) {
		texts = append(texts, lexNorm(text), text)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	pieces := []string{" ", "  ", ".", "'", "-", "x", "s", "ing", "는", "을"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			e := strings.TrimSuffix(entries[rng.IntN(len(entries))], "*")
			if e != "" && rng.IntN(3) == 0 {
				e = e[:rng.IntN(len(e))]
			}
			b.WriteString(e)
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String(), lexNorm(b.String()), " "+b.String())
	}
	found := 0
	for _, norm := range texts {
		got := map[int]bool{}
		ws.each(norm, func(e int) { got[e] = true })
		for i, e := range entries {
			want := false
			if strings.HasSuffix(e, "*") {
				want = hasWord(norm, e[:len(e)-1], false)
			} else {
				want = hasWord(norm, e, true)
			}
			if got[i] != want {
				t.Fatalf("entry %q in %q: word set %v, hasWord %v", e, norm, got[i], want)
			}
			if want {
				found++
			}
		}
	}
	if found < 1000 {
		t.Fatalf("only %d matches: the test exercises too little", found)
	}
}

// TestTypeClassifierMatchesKwFind: the compiled type tables give the type
// and keyword that kwFind over each table in order gives, on the demo
// conversation and on random texts made of the tables' keywords.
func TestTypeClassifierMatchesKwFind(t *testing.T) {
	tables := typeTables()
	c := newTypeClassifier(tables)
	reference := func(norm string) (string, string) {
		for _, t := range tables {
			if k := kwFind(norm, t.lex); k != "" {
				return t.typ, k
			}
		}
		return "note", ""
	}
	var texts []string
	for _, text := range demoTexts(t) {
		texts = append(texts, lexNorm(text))
	}
	var words []string
	for _, tt := range tables {
		words = append(words, tt.lex.en...)
		words = append(words, tt.lex.ko...)
	}
	rng := rand.New(rand.NewPCG(5, 11))
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			w := strings.TrimSuffix(words[rng.IntN(len(words))], "*")
			if rng.IntN(4) == 0 {
				w = "plain"
			} else if rng.IntN(4) == 0 {
				w += "s"
			}
			b.WriteString(w)
			if rng.IntN(5) > 0 { // else the next word runs on: a keyword inside a word
				b.WriteString(" ")
			}
		}
		texts = append(texts, lexNorm(b.String()))
	}
	typed := 0
	for _, norm := range texts {
		gt, gk := c.classify(norm)
		wt, wk := reference(norm)
		if gt != wt || gk != wk {
			t.Fatalf("%q: compiled %s %q, kwFind %s %q", norm, gt, gk, wt, wk)
		}
		if gt != "note" {
			typed++
		}
	}
	if typed < 1000 {
		t.Fatalf("only %d typed texts: the test exercises too little", typed)
	}
}

// demoTexts is the text of every message of the demo conversation.
func demoTexts(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct{ Text string }
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			texts = append(texts, m.Text)
		}
	}
	if len(texts) < 50 {
		t.Fatalf("demo conversation: %d texts", len(texts))
	}
	return texts
}
