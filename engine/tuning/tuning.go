// Package tuning holds the tunables of recall's rerank, relevance gate,
// temporal ranking, recognition and query expansion that engine.Config
// carries as its Tuning field: the weights and thresholds `memtrace help
// relevance` and `memtrace help decay` document. The defaults are the
// constants below; a policy file (memtrace/policy) sets any of them. A
// zero field reads as its default (WithDefaults), so the policy's ranges
// start above zero.
package tuning

// Rerank: relevance_score = w_lexical × bm25_norm_score + (1 − w_lexical) ×
// cosine_score, w_lexical by what the embedder measures.
const (
	// WLexicalSemantic: an embedder that measures meaning (ollama:MODEL)
	// finds what BM25 cannot, paraphrases and synonyms; the two signals
	// are independent and weigh the same.
	WLexicalSemantic = 0.5
	// WLexicalLexical: the default hashed n-gram embedder measures shared
	// words and character n-grams, the words BM25 already weighs exactly,
	// plus hash-collision noise (up to 0.45 between texts that share no
	// word, see VectorOnlyCosine). Its cosine adds spelling variants and
	// word-part overlap, not a second opinion on meaning, so the exact
	// signal leads: measured with this embedder, 0.5 → 0.7 moved LoCoMo's
	// rerank order from .652/.739 to .669/.754 at R@5/R@10 (bench locomo,
	// 2026-12-01) with the demo golden set's precision probes unchanged.
	WLexicalLexical = 0.7
	// RelevanceFloor: retrieved items scoring below it are unrelated to the
	// query and leave at rerank. HOT items are judged by the stricter
	// guaranteed gate instead.
	RelevanceFloor = 0.20
)

// The relevance gate's thresholds (see recall.RelevanceGateHelp).
const (
	// MinIDFShare: a memory whose own text carries less than this share of
	// the query's idf mass in specific (non-generic) query terms has only
	// a passing word in common with the query. One specific word of a
	// four-word query of equally rare words carries 0.25; a speaker's name
	// that half the conversation mentions carries a few hundredths.
	MinIDFShare = 0.10
	// VectorOnlyCosine: the cosine (to the query without its generic words)
	// at or above which vector similarity alone vouches for a memory that
	// holds no specific query term of its own — found by the vector search,
	// or by BM25 through its neighbours' words only. The default hashed
	// n-gram embedder measures shared words and n-grams: two texts that
	// share no word meet only by hash collisions, which reached 0.45 over
	// the 2,371 word-less (query, candidate) pairs of the demo golden set's
	// 64 queries (short queries collide most), so similarity alone means
	// something only above that.
	VectorOnlyCosine = 0.50
)

// Recognition: how a specific cue finds what free recall has lost.
const (
	// RecognitionCue is the cue_strength at or above which a memory
	// forgotten in free recall is recognised by the query: a quarter of
	// the query's rare words said in the memory or next to it. A loose
	// question ("요즘 뭐 먹었지") stays below it and forgets.
	RecognitionCue = 0.25
	// RecognitionCueNow is RecognitionCue for a query about now
	// (IntentNow): twice the cue, half the query's rare words.
	RecognitionCueNow = 0.5
	// RecognitionSpan (R): recognition fades R times slower than free
	// recall, so a memory is unrecognisable R times as long after its last
	// access as it drops out of free recall. Recognition outlasting recall
	// by years is the classic finding (Bahrick, Bahrick & Wittlinger 1975:
	// classmates' names recognised decades after they can no longer be
	// recalled); 4 makes an unimportant episode unrecognisable within
	// months and a fact a decade on.
	RecognitionSpan = 4.0
)

// β_intent: how much decay weighs in the ranking of a query that does not
// cue the memory at all (cue_strength 0), by the query's temporal intent
// (QueryIntent). A query about now weighs it fully (the old multiplier); a
// neutral one lets a stale memory lose at most a quarter of its score, so
// age decides between memories the query finds about equally relevant; a
// question about a past event uses age only to break ties between equals.
// Measured, not tuned, on LoCoMo (bench locomo, pipeline R@5/R@10, recall
// a day after the last session): 0.25 → .677/.754, 0.5 → .672/.746 —
// LoCoMo's questions are specific, so any weight costs there; 0.25 is
// the product's choice of how much a vague question should prefer fresh.
const (
	DecayWeightNow     = 1.0
	DecayWeightNeutral = 0.25
	DecayWeightPast    = 0.1
)

// Query expansion: the BM25 and evidence weights of the terms a query is
// expanded with, relative to the query term they come from, and the lift
// of a memory of a period the query names.
const (
	// ExpansionWeight: a concept-table partner (curated, across languages).
	ExpansionWeight = 0.5
	// SynonymWeight, HyponymWeight, Hyponym2Weight: WordNet expansions,
	// below the concept table's curated partners.
	SynonymWeight  = 0.4
	HyponymWeight  = 0.35
	Hyponym2Weight = 0.25
	// TwoHopWeight is a two-hop entity's BM25 weight and the share of its
	// seed's relevance a two-hop candidate gets.
	TwoHopWeight = 0.3
	// TimeCueBoost is the lift of a memory created in a period the query
	// names: final_score × (1 + TimeCueBoost). A full step: a question
	// that names the day or month asks about what happened then, so a
	// memory of that period outranks one twice as similar in words from
	// another. Measured on LoCoMo (bench locomo, pipeline R@5/R@10/R@25/R@50,
	// conversations 0–4 to tune, 5–9 to check): 0.5 → .687/.774/.843/.874,
	// 0.75 → .691/.776/.843/.874, 1.0 → .692/.779/.844/.874 (both halves
	// gain at R@5, R@10 and R@25), 1.5 and 2.0 → R@50 .873 (5–9 loses).
	TimeCueBoost = 1.0
)

// Tuning is the set of these tunables one engine runs with.
type Tuning struct {
	WLexicalLexical, WLexicalSemantic, RelevanceFloor  float64
	MinIDFShare, VectorOnlyCosine                      float64
	BetaNow, BetaNeutral, BetaPast                     float64
	RecognitionSpan, RecognitionCue, RecognitionCueNow float64
	ConceptWeight, SynonymWeight, HyponymWeight        float64
	Hyponym2Weight, TwoHopWeight, TimeCueBoost         float64
}

// Default is the documented tuning: the constants of this package.
func Default() Tuning {
	return Tuning{
		WLexicalLexical: WLexicalLexical, WLexicalSemantic: WLexicalSemantic, RelevanceFloor: RelevanceFloor,
		MinIDFShare: MinIDFShare, VectorOnlyCosine: VectorOnlyCosine,
		BetaNow: DecayWeightNow, BetaNeutral: DecayWeightNeutral, BetaPast: DecayWeightPast,
		RecognitionSpan: RecognitionSpan, RecognitionCue: RecognitionCue, RecognitionCueNow: RecognitionCueNow,
		ConceptWeight: ExpansionWeight, SynonymWeight: SynonymWeight, HyponymWeight: HyponymWeight,
		Hyponym2Weight: Hyponym2Weight, TwoHopWeight: TwoHopWeight, TimeCueBoost: TimeCueBoost,
	}
}

// WithDefaults replaces every zero field by its default.
func (t Tuning) WithDefaults() Tuning {
	d := Default()
	for _, p := range t.fields(&d) {
		if *p[0] == 0 {
			*p[0] = *p[1]
		}
	}
	return t
}

// fields pairs each field of t with the same field of d.
func (t *Tuning) fields(d *Tuning) [][2]*float64 {
	return [][2]*float64{
		{&t.WLexicalLexical, &d.WLexicalLexical}, {&t.WLexicalSemantic, &d.WLexicalSemantic}, {&t.RelevanceFloor, &d.RelevanceFloor},
		{&t.MinIDFShare, &d.MinIDFShare}, {&t.VectorOnlyCosine, &d.VectorOnlyCosine},
		{&t.BetaNow, &d.BetaNow}, {&t.BetaNeutral, &d.BetaNeutral}, {&t.BetaPast, &d.BetaPast},
		{&t.RecognitionSpan, &d.RecognitionSpan}, {&t.RecognitionCue, &d.RecognitionCue}, {&t.RecognitionCueNow, &d.RecognitionCueNow},
		{&t.ConceptWeight, &d.ConceptWeight}, {&t.SynonymWeight, &d.SynonymWeight}, {&t.HyponymWeight, &d.HyponymWeight},
		{&t.Hyponym2Weight, &d.Hyponym2Weight}, {&t.TwoHopWeight, &d.TwoHopWeight}, {&t.TimeCueBoost, &d.TimeCueBoost},
	}
}
