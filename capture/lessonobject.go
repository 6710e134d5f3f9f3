package capture

import "strings"

// A concept key of one element says what the rule prescribes ("pin
// versions", "short", "wrap", "not grep") but not what it acts on. When
// the corrective sentence names the rule's object in words of its own —
// at least thinObjectTerms content terms that are not the concept's own
// words — the single concept is thin: "Pin Docker base images to an exact
// version tag" and "Pin Python dependencies with ==" are two rules, "Keep
// commit titles short" is not "Keep log lines short", and a concept read
// from an incidental word ("unsigned long" as length, "코드 블록으로
// 감싸서" as wrapping errors) is not the lesson. Such a lesson is keyed by
// its terms (the object with the concept's own word among them); it still
// meets a recorded concept lesson of the same rule through crossLesson,
// which compares the two sentences' terms, so a lesson stored under the
// bare concept key keeps counting its rewordings that name its object.
// "Don't use tabs", "never force push to main" and "no emojis" name no
// (or one) object beside the concept and keep their concept keys.
const thinObjectTerms = 3

// thinSig reports whether sig, read from lesson, is a single concept the
// lesson's own object terms outnumber (see above).
//
// A signature of broad topics only (sql+migration, comment+why: no slot
// value, action, number or named convention) is thin the same way: it
// says what the rule is about, not what it prescribes, and "write
// migrations with IF NOT EXISTS" is not "don't add IF NOT EXISTS to
// migrations".
func thinSig(sig lessonSig, lesson string) bool {
	if len(sig.elems) > 1 {
		return topicsOnly(sig) && ownTerms(sig, lesson) >= thinObjectTerms
	}
	if len(sig.elems) != 1 {
		return false
	}
	e := sig.elems[0]
	id, slot, _, value := elemKind(e)
	if value || slot == "scope" {
		return false
	}
	c := conceptByID()[id]
	// A predicate concept, or only a forbidden value of a slot of more
	// than two ("not grep": what is not to be grepped, or searched how).
	negOnly := slot != "" && strings.HasPrefix(e, notPrefix) && len(slotValues()[slot]) > 2
	if c == nil || !c.object && !negOnly {
		return false
	}
	others := 0
	for _, t := range cachedLessonTerms(lesson) {
		if !isHangul(bare(t)) && !conceptWord(bare(t), id, slot) {
			others++
		}
	}
	return others >= thinObjectTerms
}

// topicsOnly reports whether every element of sig is a generic topic.
func topicsOnly(sig lessonSig) bool {
	for _, e := range sig.elems {
		id, slot, polar, value := elemKind(e)
		c := conceptByID()[id]
		if c == nil || !c.generic || slot != "" || polar || value || strings.HasPrefix(e, notPrefix) {
			return false
		}
	}
	return true
}

// ownTerms counts the Latin-script terms of lesson that are no word of
// sig's concepts: the rule's own object and values.
func ownTerms(sig lessonSig, lesson string) int {
	n := 0
	for _, t := range cachedLessonTerms(lesson) {
		if isHangul(bare(t)) {
			continue
		}
		named := false
		for _, e := range sig.elems {
			id, slot, _, _ := elemKind(e)
			named = named || conceptWord(bare(t), id, slot)
		}
		if !named {
			n++
		}
	}
	return n
}

// objectTerms counts the terms of lesson that may name an object: words
// the glossary, WordNet or neither (a name) reads in Latin script — a
// Korean stem the glossary does not know (새, 전, 지옥) is unread and not
// counted.
func objectTerms(lesson string) int {
	n := 0
	for _, t := range cachedLessonTerms(lesson) {
		if !isHangul(bare(t)) {
			n++
		}
	}
	return n
}

// conceptWord reports whether term t, read alone over the concept table,
// names concept id or another value of its slot (탭 for "spaces": the
// negated value of a two-value slot).
func conceptWord(t, id, slot string) bool {
	for _, e := range cachedSignature(t).elems {
		eid, eslot, _, _ := elemKind(e)
		if eid == id || slot != "" && eslot == slot {
			return true
		}
	}
	// A form of the concept the term's canonical word does not show
	// (the glossary folds "pin" into nothing, 감싸 into its stem).
	c := conceptByID()[id]
	return c != nil && kwFind(lexNorm(t), c.forms) != "" || strings.HasPrefix(t, id)
}
