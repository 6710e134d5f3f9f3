package recall

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/engine/tuning"
	"memtrace/engine/wordnet"
)

// Two-hop expansion (stages candidates and rerank): a question that names
// one thing and asks about another it is linked to ("what does my
// brother-in-law's bakery sell" — the bakery is in a memory about Taeho,
// what it sells in a memory naming Taeho) cannot be answered from the
// query's words alone. One gated round: the entities of the best lexical
// hits (the seeds) become a second, down-weighted lexical search, and what
// it finds joins the candidates.
//
//   - seeds: the first twoHopSeeds lexical hits (BM25 order);
//   - an entity is a word of a seed's own text that names something: in
//     English a capitalised word not opening a sentence, in Korean a name
//     before a person's ending ("민재한테", "태호랑"; koreanName); not a query term or expansion, not generic,
//     not a time marker, and held by at least two memories (the seed and
//     one more) and at most one in twoHopShare (a word half the store says
//     links nothing);
//   - at most twoHopTerms entities, rarest first, each at TwoHopWeight,
//     searched for the best twoHopHits memories;
//   - the second search's hits that hold an entity in their own text are
//     candidates through it (score two_hop_score in rerank).
//
// In rerank a two-hop candidate has evidence when its seed has evidence of
// its own (the seed passes the relevance gate); its relevance is at least
// TwoHopWeight × the seed's. A two-hop candidate whose seed fails leaves
// with the drop_kind its own evidence earns. The candidates stage's note
// two_hop names the seeds, entities and weights; rerank's two_hop_evidence
// counts what it kept.

// TwoHopWeight is a two-hop entity's BM25 weight and the share of its
// seed's relevance a two-hop candidate gets: the default (engine/tuning);
// a recall reads its own from Config.Tuning.
const TwoHopWeight = tuning.TwoHopWeight

const (
	twoHopSeeds = 3
	twoHopTerms = 4
	twoHopShare = 50
	// twoHopHits bounds the second search: each candidate costs every
	// later stage, and a second hop is a few memories, not a pool (50 hits:
	// recall CPU ×1.45 at 10k memories)
	twoHopHits = 10
)

// hopVia is how a candidate was found in the second hop: its seed and the
// entity it holds.
type hopVia struct {
	seed int64
	term string
	ok   bool // its seed has evidence (rerank)
}

// twoHop runs the second lexical search from lex's first hits. It returns
// its hits that hold an entity, how each was found, and the trace note.
func (r *recallRun) twoHop(lex []engine.Hit) ([]engine.Hit, map[int64]hopVia, string) {
	ents, seedOf := r.hopEntities(lex)
	if len(ents) == 0 {
		return nil, nil, ""
	}
	ws := make(map[string]float64, len(ents))
	for _, t := range ents {
		ws[t] = r.cfg.Tuning.TwoHopWeight
	}
	hits := r.e.LexicalSearchDF(ws, twoHopHits, map[string]int{})
	v := r.e.View()
	defer v.Close()
	nos := make([]int32, len(ents))
	for i, t := range ents {
		nos[i], _ = v.TermNo(t)
	}
	seeds := map[int64]bool{}
	for _, s := range seedOf {
		seeds[s] = true
	}
	via := map[int64]hopVia{}
	var out []engine.Hit
	for _, h := range hits {
		if seeds[h.ID] {
			continue
		}
		own := v.OwnTerms(h.ID)
		for i, no := range nos {
			if slices.Contains(own, no) {
				via[h.ID] = hopVia{seed: seedOf[ents[i]], term: ents[i]}
				out = append(out, h)
				break
			}
		}
	}
	parts := make([]string, len(ents))
	for i, t := range ents {
		parts[i] = fmt.Sprintf("%s (of #%d) ×%s", t, seedOf[t], f3(r.cfg.Tuning.TwoHopWeight))
	}
	return out, via, fmt.Sprintf("entities of the first %d lexical hits: %s; %d hits hold one", twoHopSeeds, strings.Join(parts, ", "), len(out))
}

// hopEntities are the seeds' entities, rarest first, at most twoHopTerms,
// and the seed each comes from.
func (r *recallRun) hopEntities(lex []engine.Hit) ([]string, map[string]int64) {
	markers := MarkerTerms(r.q.Text)
	v := r.e.View()
	defer v.Close()
	limit := max(2, len(v.IDs())/twoHopShare)
	seedOf := map[string]int64{}
	df := map[string]int{}
	for _, h := range lex[:min(len(lex), twoHopSeeds)] {
		m := v.Memory(h.ID)
		if m == nil {
			continue
		}
		for _, t := range entityTerms(m.Content) {
			if _, ok := seedOf[t]; ok {
				continue
			}
			if _, q := r.weights[t]; q || markers[t] || textnorm.IsGeneric(t) {
				continue
			}
			if f := v.OwnDocFreq(t); f >= 2 && f <= limit {
				seedOf[t], df[t] = h.ID, f
			}
		}
	}
	ents := make([]string, 0, len(seedOf))
	for t := range seedOf {
		ents = append(ents, t)
	}
	sort.Slice(ents, func(i, j int) bool {
		if df[ents[i]] != df[ents[j]] {
			return df[ents[i]] < df[ents[j]]
		}
		return ents[i] < ents[j]
	})
	return ents[:min(len(ents), twoHopTerms)], seedOf
}

// personMarkers are the Korean endings that follow a person's name, not a
// thing's ("태호랑", "민재한테", "지연이가", "수진씨"): Korean has no
// capitals, and a Hangul word alone ("요즘", "아침") names nothing.
var personMarkers = [...]string{"이랑", "이한테", "한테", "랑", "이가", "씨", "님", "이네"}

// koreanName is the name in w when w is a name of two or three syllables
// with a personMarkers ending.
func koreanName(w string) (string, bool) {
	for _, m := range personMarkers {
		if n, ok := strings.CutSuffix(w, m); ok {
			if c := utf8.RuneCountInString(n); c >= 2 && c <= 3 {
				return n, true
			}
		}
	}
	return w, false
}

// entityTerms are the index terms of text's words that name something: a
// capitalised Latin word that does not open a sentence (after ".", "!",
// "?", ":" or a line's start), not a month or weekday and not an
// adjective in WordNet (Korean, English), a Hangul word of
// two or three syllables before a personMarkers ending.
func entityTerms(text string) []string {
	var out []string
	sentenceWords(text, func(w string, hangul, opens bool) {
		named := !hangul && !opens && startsUpper(w) && len(w) >= 3
		if hangul {
			w, named = koreanName(w)
		}
		lw := strings.ToLower(w)
		if _, month := monthNames[lw]; month {
			named = false // a date, not a name: the period grammar reads it
		} else if _, day := weekdayIndex[lw]; day {
			named = false
		} else if named && len(wordnet.Senses(lw, 'a')) > 0 {
			// English capitalises the adjectives of peoples and languages
			// (Korean, English, Japanese): WordNet knows them as
			// adjectives, and they link a language rule to a home, not one
			// person's facts to another's.
			named = false
		}
		if named {
			if t, ok := textnorm.Term(lw, hangul); ok {
				out = append(out, t)
			}
		}
	})
	return out
}

// sentenceWords calls fn with each word of text — letters and digits of
// one script — whether it is Hangul, and whether it opens a sentence (it
// is the first word, or follows . ! ? : or a line break): where a capital
// is the writer's and where it is the sentence's.
func sentenceWords(text string, fn func(w string, hangul, opens bool)) {
	opens := true
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if strings.ContainsRune(".!?:\n", r) {
				opens = true
			}
			i += n
			continue
		}
		hangul := unicode.Is(unicode.Hangul, r)
		j := scriptRunEnd(text, i, hangul)
		fn(text[i:j], hangul, opens)
		opens = false
		i = j
	}
}

// hopRelevance gives each two-hop candidate whose seed has evidence of its
// own TwoHopWeight × the seed's relevance (when more than its own) and
// marks it ok; after the relevance scores, before the gate.
func (r *recallRun) hopRelevance() {
	var seeds map[int64]*candidate
	for _, c := range r.live {
		if c.hop == nil {
			continue
		}
		if seeds == nil {
			seeds = map[int64]*candidate{}
			for _, s := range r.live {
				seeds[s.m.ID] = s
			}
		}
		s := seeds[c.hop.seed]
		if s == nil || s.hop != nil {
			continue
		}
		if kind, _ := relevanceVerdict(s, *s.ev, len(r.generic) > 0, &r.cfg.Tuning); kind != "" || (s.relevance < r.cfg.Tuning.RelevanceFloor && !r.periodEvidence(s)) {
			continue
		}
		c.hop.ok = true
		hr := r.cfg.Tuning.TwoHopWeight * s.relevance
		c.set("two_hop_score", hr)
		if hr > c.relevance {
			c.relevance = hr
			c.set("relevance_score", hr)
		}
	}
}

// twoHopEvidenceNote is the rerank stage's note on two-hop evidence.
func twoHopEvidenceNote(kept int, weight float64) string {
	return fmt.Sprintf("a candidate found through a seed's entity (candidates note two_hop) has evidence when the seed has its own; relevance_score ≥ %s × the seed's, no floor; %d kept by it",
		f3(weight), kept)
}

// scriptRunEnd is the end of the word that starts at i in text: letters
// and digits of one script, Hangul (hangul) or not, so "Sena가" is the
// name Sena and its particle.
func scriptRunEnd(text string, i int, hangul bool) int {
	j := i
	for j < len(text) {
		if c := text[j]; c < utf8.RuneSelf { // ASCII: no table lookups
			if hangul || !asciiAlnum(c) {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[j:])
		if r >= 0xAC00 && r <= 0xD7A3 { // a Hangul syllable: a letter, no table lookups
			if !hangul {
				break
			}
			j += n
			continue
		}
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) || unicode.Is(unicode.Hangul, r) != hangul {
			break
		}
		j += n
	}
	return j
}

func asciiAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// startsUpper: w's first letter is a capital.
func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}
