// Package wordnet is Princeton WordNet 3.0's English noun, verb, adjective
// and adverb synsets, compiled into a compact embedded table: each synset's
// single-word lemmas with their sense ranks, its direct (and instance)
// hypernyms, the antonymy between synsets, and WordNet's morphological
// exception lists. Recall uses it as
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
// "x<TAB>POS<TAB>form base …" ("x n mice mouse"); a synset's antonyms are
// "!<TAB>A<TAB>B C …" (record numbers in base 36, A ascending). The table is read once,
// at the first call that needs it, not at process start.
//
// It imports nothing of the module, so the engine may use it.
package wordnet

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ../../internal/tools/wordnetgen -out wordnet.tsv

//go:embed wordnet.tsv
var table string

// Synset is a synset's number in the table.
type Synset int32

// The parsed table holds no Go pointers but a few slice headers: a word is
// an offset and a length into the embedded text, a synset's lemmas,
// hypernyms and hyponyms are ranges of shared arrays, and a lemma's senses
// are found through an open-addressing hash of int32 slots. The garbage
// collector never scans it (a map of string keys and slice values, the
// first version, added its ~100k pointers to every GC cycle of the process:
// about 15% of a recall's CPU at 10k memories went to marking).
type db struct {
	pos     []byte   // per synset
	wordAt  []uint32 // per synset, +1: its lemmas are words[wordAt[s]:wordAt[s+1]]
	words   []span
	hyperAt []uint32 // per synset, +1
	hypers  []Synset
	hypoAt  []uint32 // per synset, +1
	hypos   []Synset
	lemmas  []lemma             // one per (part of speech, lemma)
	slots   []int32             // open addressing: index into lemmas, -1 empty
	senses  []sense             // linked per lemma through next
	exc     map[string][]string // "n mice" → base forms (5k entries)
	antOf   []Synset            // the synsets with antonyms, ascending
	antAt   []uint32            // per antOf, +1: its antonyms are ants[antAt[i]:antAt[i+1]]
	ants    []Synset
}

// span is a word inside the embedded table.
type span struct {
	off uint32
	n   uint16
}

func (w span) String() string { return table[w.off : w.off+uint32(w.n)] }

type lemma struct {
	w     span
	pos   byte
	first int32 // first sense, -1 none
}

type sense struct {
	s, rank, next int32
}

// load parses the table once.
var load = sync.OnceValue(loadTable)

func hashKey(pos byte, w string) uint32 {
	h := uint32(2166136261) ^ uint32(pos)
	h *= 16777619
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return h
}

// find is the index of (pos, w) in d.lemmas, or the slot to fill and -1.
func (d *db) find(pos byte, w string) (slot uint32, at int32) {
	mask := uint32(len(d.slots) - 1)
	for i := hashKey(pos, w) & mask; ; i = (i + 1) & mask {
		j := d.slots[i]
		if j < 0 {
			return i, -1
		}
		if l := &d.lemmas[j]; l.pos == pos && l.w.String() == w {
			return i, j
		}
	}
}

// addSense records that lemma w of pos has synset n at rank r.
func (d *db) addSense(pos byte, w span, n Synset, r int32) {
	slot, at := d.find(pos, w.String())
	if at < 0 {
		at = int32(len(d.lemmas))
		d.lemmas = append(d.lemmas, lemma{w: w, pos: pos, first: -1})
		d.slots[slot] = at
	}
	l := &d.lemmas[at]
	d.senses = append(d.senses, sense{s: int32(n), rank: r, next: l.first})
	l.first = int32(len(d.senses) - 1)
}

func loadTable() *db {
	d := &db{exc: make(map[string][]string, 6000)}
	d.slots = make([]int32, 1<<18) // ≥ 2 × the ~150k (pos, lemma) pairs
	for i := range d.slots {
		d.slots[i] = -1
	}
	d.pos = make([]byte, 0, 118000)
	d.wordAt = make([]uint32, 0, 118001)
	d.hyperAt = make([]uint32, 0, 118001)
	d.words = make([]span, 0, 210000)
	d.hypers = make([]Synset, 0, 120000)
	d.lemmas = make([]lemma, 0, 150000)
	d.senses = make([]sense, 0, 210000)
	off := 0 // where rest starts in table
	rest := table
	skip := func(n int) { rest, off = rest[n:], off+n }
	next := func(sep byte) (string, int) { // the text up to sep, a tab or the line's end, and its offset
		i := 0
		for i < len(rest) && rest[i] != sep && rest[i] != '\t' && rest[i] != '\n' {
			i++
		}
		f, at := rest[:i], off
		skip(i)
		if rest != "" && rest[0] == sep {
			skip(1)
		}
		return f, at
	}
	for rest != "" {
		if rest[0] == '#' || rest[0] == '\n' {
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				skip(i + 1)
			} else {
				rest = ""
			}
			continue
		}
		pos, _ := next('\t')
		if pos == "x" {
			p, _ := next('\t')
			line, _ := next('\n')
			ws := strings.Fields(line)
			d.exc[p+" "+ws[0]] = ws[1:]
			continue
		}
		if pos == "!" {
			a, _ := next('\t')
			line, _ := next('\n')
			v, _ := strconv.ParseInt(a, 36, 32)
			d.antOf = append(d.antOf, Synset(v))
			d.antAt = append(d.antAt, uint32(len(d.ants)))
			for _, b := range strings.Fields(line) {
				w, _ := strconv.ParseInt(b, 36, 32)
				d.ants = append(d.ants, Synset(w))
			}
			continue
		}
		n := Synset(len(d.pos))
		d.pos = append(d.pos, pos[0])
		d.wordAt = append(d.wordAt, uint32(len(d.words)))
		for rest != "" && rest[0] != '\t' && rest[0] != '\n' {
			w, at := next(' ')
			r := int32(1)
			if i := strings.IndexByte(w, ':'); i >= 0 {
				v, _ := strconv.Atoi(w[i+1:])
				r, w = int32(v), w[:i]
			}
			sp := span{uint32(at), uint16(len(w))}
			d.words = append(d.words, sp)
			d.addSense(pos[0], sp, n, r)
		}
		if rest != "" && rest[0] == '\t' {
			skip(1)
		}
		d.hyperAt = append(d.hyperAt, uint32(len(d.hypers)))
		for rest != "" && rest[0] != '\n' {
			h, _ := next(' ')
			v, _ := strconv.ParseInt(h, 36, 32)
			d.hypers = append(d.hypers, Synset(v))
		}
		if rest != "" {
			skip(1) // the newline
		}
	}
	d.wordAt = append(d.wordAt, uint32(len(d.words)))
	d.hyperAt = append(d.hyperAt, uint32(len(d.hypers)))
	d.antAt = append(d.antAt, uint32(len(d.ants)))
	d.linkHyponyms()
	return d
}

// linkHyponyms fills the hyponym ranges from the hypernyms, each synset's
// hyponyms in table order.
func (d *db) linkHyponyms() {
	ns := len(d.pos)
	d.hypoAt = make([]uint32, ns+1)
	for _, h := range d.hypers {
		d.hypoAt[h+1]++
	}
	for i := 1; i <= ns; i++ {
		d.hypoAt[i] += d.hypoAt[i-1]
	}
	d.hypos = make([]Synset, len(d.hypers))
	fill := make([]uint32, ns)
	copy(fill, d.hypoAt[:ns])
	for s := 0; s < ns; s++ {
		for _, h := range d.hypers[d.hyperAt[s]:d.hyperAt[s+1]] {
			d.hypos[fill[h]] = Synset(s)
			fill[h]++
		}
	}
}

// Senses returns lemma's synsets of part of speech pos ('n', 'v', 'a',
// 'r'), most frequent sense first; lemma is lower-case, a base form.
func Senses(lemma string, pos byte) []Synset {
	d := load()
	_, at := d.find(pos, lemma)
	if at < 0 {
		return nil
	}
	var ss []sense
	for i := d.lemmas[at].first; i >= 0; i = d.senses[i].next {
		ss = append(ss, d.senses[i])
	}
	// insertion sort by rank, table order among equals: a lemma has a
	// handful of senses, linked newest first
	slices.Reverse(ss)
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && ss[j].rank < ss[j-1].rank; j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
	out := make([]Synset, len(ss))
	for i, s := range ss {
		out[i] = Synset(s.s)
	}
	return out
}

// Words is the synset's single-word lemmas, in table order.
func Words(s Synset) []string {
	d := load()
	ws := d.words[d.wordAt[s]:d.wordAt[s+1]]
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

// Hyponyms is the synsets whose direct hypernym s is (shared: do not
// modify).
func Hyponyms(s Synset) []Synset {
	d := load()
	return d.hypos[d.hypoAt[s]:d.hypoAt[s+1]:d.hypoAt[s+1]]
}

// Hypernyms is the synsets s is a direct (or instance) hyponym of (shared:
// do not modify).
func Hypernyms(s Synset) []Synset {
	d := load()
	return d.hypers[d.hyperAt[s]:d.hyperAt[s+1]:d.hyperAt[s+1]]
}

// Antonyms is the synsets s stands against: WordNet's direct antonymy of
// their lemmas (permit → forbid, include → exclude, ascending →
// descending), kept between whole synsets (shared: do not modify).
func Antonyms(s Synset) []Synset {
	d := load()
	i, ok := slices.BinarySearch(d.antOf, s)
	if !ok {
		return nil
	}
	return d.ants[d.antAt[i]:d.antAt[i+1]:d.antAt[i+1]]
}

// Opposed reports whether a and b are antonyms: one of the two most
// frequent senses of one of them (of one part of speech) stands against
// one of the four most frequent of the other — "allow" and "forbid",
// "enable" and "disable", "ascending" and "descending", "top" and
// "bottom", "hide" and "show" (whose sense that hide opposes is its
// fourth). a and b are lower-case base forms.
func Opposed(a, b string) bool {
	for _, pos := range []byte{'v', 'a', 'n', 'r'} {
		sa, sb := Senses(a, pos), Senses(b, pos)
		if len(sa) > 0 && len(sb) > 0 && (against(sa[:min(len(sa), 2)], sb[:min(len(sb), 4)]) || against(sb[:min(len(sb), 2)], sa[:min(len(sa), 4)])) {
			return true
		}
	}
	return false
}

// against reports whether a synset of xs has one of ys as its antonym.
func against(xs, ys []Synset) bool {
	for _, x := range xs {
		for _, y := range Antonyms(x) {
			if slices.Contains(ys, y) {
				return true
			}
		}
	}
	return false
}

func (d *db) known(pos byte, w string) bool {
	_, at := d.find(pos, w)
	return at >= 0
}

// Lemmas returns the base forms of word (lower-case) that WordNet holds as
// part of speech pos, by WordNet's own morphology (morphy): the exception
// list first ("mice" → "mouse"), the word itself, then the detachment
// rules of pos ("desserts" → "dessert", "baking" → "bake").
func Lemmas(word string, pos byte) []string {
	d := load()
	var out []string
	add := func(w string) {
		if d.known(pos, w) {
			for _, o := range out {
				if o == w {
					return
				}
			}
			out = append(out, w)
		}
	}
	for _, b := range d.exc[string(pos)+" "+word] {
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
		if d.known(p, word) {
			return true
		}
	}
	return false
}
