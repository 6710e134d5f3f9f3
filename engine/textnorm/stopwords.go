package textnorm

// IsStopWord reports whether w (lower-cased) is an English or Korean stop
// word: a word that says how something is asked, not what about.
func IsStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

var stopWords = func() map[string]struct{} {
	words := []string{
		// English
		"a", "an", "the", "and", "or", "but", "if", "then", "so", "of", "at", "by", "for", "with",
		"about", "to", "from", "in", "on", "into", "onto", "over", "under", "up", "down", "out",
		"is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "doing",
		"have", "has", "had", "having", "i", "me", "my", "mine", "myself", "you", "your", "yours",
		"we", "our", "us", "he", "him", "his", "she", "her", "they", "them", "their", "it", "its",
		"this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where",
		"why", "how", "can", "could", "would", "should", "will", "shall", "may", "might", "must",
		"not", "no", "yes", "all", "any", "some", "just", "also", "too", "very", "really", "there",
		"here", "than", "as", "again", "please", "tell", "remind", "know", "let", "lets", "s", "t",
		"don", "didn", "doesn", "isn", "wasn", "ll", "ve", "re", "d", "m", "o", "hey", "hi",
		// Korean: pronouns, demonstratives, fillers and request verbs
		"그", "이", "저", "그거", "이거", "저거", "그것", "이것", "저것", "것", "거", "수", "좀",
		"그냥", "뭐", "뭔가", "무엇", "무슨", "어떤", "어떻게", "언제", "어디", "왜", "누구",
		"나", "너", "저는", "나는", "내", "제", "우리", "너의", "제가", "내가",
		"알려줘", "알려", "알려주세요", "알려줄래", "말해줘", "말해", "해줘", "줘", "주세요",
		"있어", "있어요", "있나", "있니", "없어", "했지", "했어", "하는", "했던", "그리고", "그래서",
		"그런데", "근데", "하지만", "또", "및", "등", "아", "어", "음", "응", "진짜", "정말", "너무",
		"혹시", "다시", "지금", "기억해", "기억나", "기억나니", "기억해줘",
		// particles standing alone once a Latin word was split off ("memtrace의")
		"은", "는", "가", "을", "를", "의", "에", "도", "만", "과", "와", "로", "랑", "에서", "으로",
	}
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}()
