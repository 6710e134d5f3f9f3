package textnorm

import "strings"

// Generic words are query terms that are kept (they can carry meaning in a
// phrase: "take" in "what medication do I take") but that cannot by
// themselves make a memory relevant: light verbs, quantifiers, frequency
// adverbs and empty nouns. A memory whose own text shares only generic
// words with the query is not about the query ("Hana is taking two weeks
// off" for "what medication do I take every morning"); recall's relevance
// gate drops it (engine: DropGenericOnly).
//
// Stop words (stopwords.go) are removed from the query altogether; generic
// words stay searchable and rank, but count as no evidence. The lists are
// surface words; IsGeneric compares index terms, so each word is stored as
// its Term (stemmed, particles stripped) and as written.

// GenericWordsEN are the English generic words, as written.
var GenericWordsEN = []string{
	// light verbs and their common forms
	"take", "takes", "taking", "took", "taken", "make", "makes", "making", "made",
	"get", "gets", "getting", "got", "gotten", "give", "gives", "giving", "gave", "given",
	"go", "goes", "going", "went", "gone", "come", "comes", "coming", "came",
	"put", "puts", "putting", "keep", "keeps", "keeping", "kept",
	"use", "uses", "using", "used", "want", "wants", "wanted", "need", "needs", "needed",
	"like", "likes", "liked", "see", "sees", "saw", "seen", "look", "looks", "looked",
	"say", "says", "said", "think", "thinks", "thought", "try", "tries", "tried",
	"start", "starts", "started", "find", "finds", "found", "feel", "feels", "felt",
	"seem", "seems", "become", "becomes", "became", "bring", "brings", "brought",
	"mean", "means", "meant", "happen", "happens", "happened",
	// quantifiers and determiners the stop list keeps
	"every", "each", "many", "much", "more", "most", "few", "several", "both", "either",
	"neither", "other", "others", "another", "such", "same", "only", "whole", "enough", "less", "least",
	// frequency adverbs, and time words that say when, not what
	"always", "never", "often", "usually", "sometimes", "ever", "once", "still", "already", "yet",
	"today", "now", "day", "days", "time", "times", "morning", "mornings", "afternoon", "evening",
	"evenings", "night", "nights", "tonight", "yesterday", "tomorrow", "week", "weeks", "weekend",
	"weekends", "month", "months", "year", "years", "next", "last", "long",
	// empty nouns, and attribute nouns that name what is asked, not about what
	"thing", "things", "stuff", "something", "anything", "everything", "nothing",
	"someone", "anyone", "everyone", "lot", "lots", "kind", "way", "ways", "bit", "name", "names",
}

// GenericWordsKO are the Korean generic words, as written: 하다/되다/있다/
// 없다/가다/오다/주다/보다 in their common forms, quantifiers (모든, 다,
// 모두, 전부), frequency adverbs and time words (항상, 자주, 아침, 다음 …),
// empty and attribute nouns (때, 정도, 이름) and question words (뭐야, 어때).
var GenericWordsKO = []string{
	// 하다 (do), 되다 (become), 있다/없다 (be, have / not)
	"하다", "한다", "했다", "하고", "해서", "하면", "할", "한", "해", "했", "함", "합니다", "했어요",
	"하기", "하기로", "하려고", "했는데", "하자",
	"되다", "된다", "됐다", "되고", "되는", "된", "될", "돼", "됐어", "되면",
	"있다", "있는", "있고", "있을", "있던", "있었", "있었어", "있어서", "있습니다",
	"없다", "없는", "없고", "없었어",
	// 가다/오다/주다/받다/보다 (go, come, give, get, see)
	"가다", "가서", "갔다", "갔어", "가는", "갈", "오다", "와서", "왔다", "왔어", "오는", "올",
	"주다", "주는", "줬어", "받다", "받는", "받았어", "보다", "봤어", "보는", "보고",
	// quantifiers
	"모든", "모두", "다", "전부", "전체", "많이", "많은", "조금", "약간", "여러", "각",
	// frequency adverbs, and time words that say when, not what
	"항상", "늘", "자주", "가끔", "매번", "언제나", "이미", "아직", "오늘", "요즘", "이번",
	"아침", "저녁", "밤", "오후", "어제", "내일", "주말", "다음", "지난", "매일",
	// empty nouns, attribute nouns (이름 name) and question words
	"때", "정도", "때문", "경우", "부분", "이름", "어때", "어땠어", "어떠",
	"뭐야", "뭐지", "뭐였지", "뭐였더라", "뭘", "뭘로", "뭐로", "누구야", "어디야",
}

var genericTerms = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, list := range [][]string{GenericWordsEN, GenericWordsKO} {
		for _, w := range list {
			m[w] = struct{}{}
			eachWord(w, func(word string, hangul bool) {
				if t, ok := term(word, hangul); ok {
					m[t] = struct{}{}
				}
			})
		}
	}
	return m
}()

// IsGeneric reports whether t, an index term (Term, Tokens, QueryTerms) or
// a lower-cased word, is a generic word.
func IsGeneric(t string) bool {
	_, ok := genericTerms[t]
	return ok
}

// SpecificSurface is Surface without the generic words: what a query asks
// about once its light verbs and quantifiers are gone ("what medication do I
// take every morning" → "medication morning"). It is "" when every content
// word of s is generic.
func SpecificSurface(s string) string {
	var parts []string
	eachWord(s, func(w string, hangul bool) {
		t, ok := term(w, hangul)
		if !ok || IsGeneric(t) || IsGeneric(w) {
			return
		}
		if hangul {
			parts = append(parts, stripKorean(w))
			return
		}
		parts = append(parts, w)
	})
	return strings.Join(parts, " ")
}
