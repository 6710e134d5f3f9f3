package textnorm

// Stem is the English stemmer of Tokens and QueryTerms: Porter2 with
// readable stems that keep a final "e" ("apples" → "apple",
// "relationships" → "relationship", "adoption" → "adopt", "memtrace"
// stays). Keeping the "e" keeps the stems StableTokens stores (the hashed
// vectors, lesson keys) as they were; search and ranking (Tokens) drop
// it where Porter2 would (Conflate), so "approve" meets "approved".
// Korean words never reach it.
func Stem(w string) string {
	if len(w) <= 2 || !isASCIILetters(w) {
		return w
	}
	return readable(porter2(w, true))
}
