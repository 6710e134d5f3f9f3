// Package wordnet is Princeton WordNet 3.0's English noun, verb, adjective
// and adverb synsets, compiled into a compact embedded table: each synset's
// single-word lemmas with their sense ranks, its direct (and instance)
// hypernyms, and WordNet's morphological exception lists. Recall uses it as
// gated, down-weighted query expansion — synonyms and hyponyms, so
// "desserts" can find "cobbler" (recall/recall_wordnet.go).
//
// The table (wordnet.tsv, about 2 MB; WordNet's licence is LICENSE beside
// it) is made by internal/tools/wordnetgen from the Debian package
// wordnet-base:
//
//	apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn
//	WORDNET_DIR=/tmp/wn/usr/share/wordnet go generate ./engine/wordnet
//
// Format, one record a line ("#" lines are comments): a synset is
// "POS<TAB>lemma lemma:R …<TAB>H H …", POS one of n v a r, a lemma's sense
// rank R (its place among the lemma's senses of that part of speech, most
// frequent first) omitted when 1, H the hypernyms' record numbers in base
// 36 (record 0 is the first synset line); an exception is
// "x<TAB>POS<TAB>form base …" ("x n mice mouse"). The table is read once,
// at the first call that needs it, not at process start.
//
// It imports nothing of the module, so the engine may use it.
package wordnet

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ../../internal/tools/wordnetgen -out wordnet.tsv

//go:embed wordnet.tsv
var table string

// Synset is a synset's number in the table.
type Synset int32

type synset struct {
	pos   byte
	words []string // single-word lemmas, table order
	hyper []Synset
	hypo  []Synset
}

type sense struct {
	s    Synset
	rank int32
}

type key struct {
	pos byte
	w   string
}

type db struct {
	synsets []synset
	senses  map[key][]sense  // a lemma's senses of one part of speech, by rank
	exc     map[key][]string // an exception form's base forms
}

// load parses the table once. It cuts the embedded text in place (every
// word is a substring of it) and fills shared backing arrays, so the whole
// table costs a few large allocations, not one per word.
var load = sync.OnceValue(loadTable)

func loadTable() *db {
	d := &db{senses: make(map[key][]sense, 90000), exc: make(map[key][]string, 6000)}
	d.synsets = make([]synset, 0, 118000)
	words := make([]string, 0, 150000)
	hypers := make([]Synset, 0, 120000)
	rest := table
	next := func(sep byte) string { // the text up to sep, a tab or the line's end
		i := 0
		for i < len(rest) && rest[i] != sep && rest[i] != '\t' && rest[i] != '\n' {
			i++
		}
		f := rest[:i]
		rest = rest[i:]
		if rest != "" && rest[0] == sep {
			rest = rest[1:]
		}
		return f
	}
	for rest != "" {
		if rest[0] == '#' || rest[0] == '\n' {
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[i+1:]
			} else {
				rest = ""
			}
			continue
		}
		pos := next('\t')
		if pos == "x" {
			p := next('\t')[0]
			line := next('\n')
			ws := strings.Fields(line)
			d.exc[key{p, ws[0]}] = ws[1:]
			continue
		}
		n := Synset(len(d.synsets))
		s := synset{pos: pos[0]}
		w0 := len(words)
		for rest != "" && rest[0] != '\t' && rest[0] != '\n' {
			w := next(' ')
			r := int32(1)
			if i := strings.IndexByte(w, ':'); i >= 0 {
				v, _ := strconv.Atoi(w[i+1:])
				r, w = int32(v), w[:i]
			}
			words = append(words, w)
			k := key{s.pos, w}
			d.senses[k] = append(d.senses[k], sense{n, r})
		}
		s.words = words[w0:len(words):len(words)]
		if rest != "" {
			rest = rest[1:] // the tab
		}
		h0 := len(hypers)
		for rest != "" && rest[0] != '\n' {
			v, _ := strconv.ParseInt(next(' '), 36, 32)
			hypers = append(hypers, Synset(v))
		}
		s.hyper = hypers[h0:len(hypers):len(hypers)]
		if rest != "" {
			rest = rest[1:] // the newline
		}
		d.synsets = append(d.synsets, s)
	}
	nhypo := make([]int32, len(d.synsets))
	for i := range d.synsets {
		for _, h := range d.synsets[i].hyper {
			nhypo[h]++
		}
	}
	hypos := make([]Synset, len(hypers))
	at := 0
	for i := range d.synsets {
		d.synsets[i].hypo = hypos[at : at : at+int(nhypo[i])]
		at += int(nhypo[i])
	}
	for i := range d.synsets {
		for _, h := range d.synsets[i].hyper {
			d.synsets[h].hypo = append(d.synsets[h].hypo, Synset(i))
		}
	}
	for _, ss := range d.senses {
		// insertion sort: a lemma has a handful of senses
		for i := 1; i < len(ss); i++ {
			for j := i; j > 0 && ss[j].rank < ss[j-1].rank; j-- {
				ss[j], ss[j-1] = ss[j-1], ss[j]
			}
		}
	}
	return d
}

// Senses returns lemma's synsets of part of speech pos ('n', 'v', 'a',
// 'r'), most frequent sense first; lemma is lower-case, a base form.
func Senses(lemma string, pos byte) []Synset {
	ss := load().senses[key{pos, lemma}]
	out := make([]Synset, len(ss))
	for i, s := range ss {
		out[i] = s.s
	}
	return out
}

// Words is the synset's single-word lemmas (shared: do not modify).
func Words(s Synset) []string { return load().synsets[s].words }

// POS is the synset's part of speech.
func POS(s Synset) byte { return load().synsets[s].pos }

// Hypernyms is the synset's direct hypernyms, instance hypernyms included
// (shared: do not modify).
func Hypernyms(s Synset) []Synset { return load().synsets[s].hyper }

// Hyponyms is the synsets whose direct hypernym s is (shared: do not
// modify).
func Hyponyms(s Synset) []Synset { return load().synsets[s].hypo }

// Lemmas returns the base forms of word (lower-case) that WordNet holds as
// part of speech pos, by WordNet's own morphology (morphy): the exception
// list first ("mice" → "mouse"), the word itself, then the detachment
// rules of pos ("desserts" → "dessert", "baking" → "bake").
func Lemmas(word string, pos byte) []string {
	d := load()
	var out []string
	add := func(w string) {
		if _, ok := d.senses[key{pos, w}]; ok {
			for _, o := range out {
				if o == w {
					return
				}
			}
			out = append(out, w)
		}
	}
	for _, b := range d.exc[key{pos, word}] {
		add(b)
	}
	add(word)
	for _, r := range rules[pos] {
		if strings.HasSuffix(word, r[0]) && len(word) > len(r[0]) {
			add(word[:len(word)-len(r[0])] + r[1])
		}
	}
	return out
}

// rules are WordNet's detachment rules (morphy(7WN)): suffix → ending.
var rules = map[byte][][2]string{
	'n': {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	'v': {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
	'a': {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// Known reports whether word is a lemma of any part of speech.
func Known(word string) bool {
	d := load()
	for _, p := range []byte{'n', 'v', 'a', 'r'} {
		if _, ok := d.senses[key{p, word}]; ok {
			return true
		}
	}
	return false
}
