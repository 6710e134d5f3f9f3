package capture

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"memtrace/engine"
)

// Lesson identity across key kinds. A lesson is keyed by its signature
// over the concept table when one wording names a convention specifically
// enough ("concept:…"), and by its canonical terms when it does not
// ("terms:…", lessonkey.go). One rule reworded can land on both: "indent
// nested blocks the way gofmt does" names gofmt, "네스팅된 블록은 탭 하나씩"
// may not name it in the table's words. Keys of one kind are compared by
// their own rule (sameLesson); a key that meets no recorded lesson of its
// kind is then compared with the lessons of the other kind (crossLesson):
//
//   - the concept lesson is read as terms too — the canonical terms of its
//     recorded sentence (Correction.Lesson, the latest wording) — and the
//     two term sets must be one lesson by lessonOverlap, with its
//     polarity and value-swap rules ("use rg, not grep" never meets "use
//     grep, not rg");
//   - and the terms lesson's sentence, read over the concept table, must
//     prescribe nothing the concept key does not: every concept it names is
//     one of the key's, none conflicts with it (another slot value, the
//     opposite polarity, another number: Korean vs English, 2 vs 4 spaces,
//     tabs vs spaces, tests vs linter never join), and a scoped concept
//     lesson ("in the billing repo") is never the unscoped terms lesson.
//
// The sighting is counted under the recorded key: keys are never renamed,
// a lesson keeps the key it was first recorded with, of either kind.

// crossLesson reports whether a new lesson (key, the sentence it was read
// from) is recorded lesson old of the other key kind, and how many terms
// they share. Keys of one kind are never compared here (sameLesson is).
func crossLesson(key, lesson string, old *engine.Correction) (int, bool) {
	_, newSig := sigFromKey(key)
	_, oldSig := sigFromKey(old.LessonKey)
	var conceptKey, termsLesson string
	var terms, conceptTerms []string
	switch {
	case newSig && keyTerms(old.LessonKey) != nil:
		conceptKey, conceptTerms = key, cachedLessonTerms(lesson)
		terms, termsLesson = keyTerms(old.LessonKey), old.Lesson
	case oldSig && keyTerms(key) != nil:
		conceptKey, conceptTerms = old.LessonKey, cachedLessonTerms(old.Lesson)
		terms, termsLesson = keyTerms(key), lesson
	default:
		return 0, false
	}
	if len(conceptTerms) == 0 || !conceptCovers(conceptKey, termsLesson) || !valuesSaid(conceptKey, conceptTerms, terms) ||
		otherTopic(conceptKey, termsLesson, terms, conceptTerms) {
		return 0, false
	}
	return lessonOverlap(terms, conceptTerms)
}

// otherTopic reports whether the terms lesson acts on another object than
// the concept lesson's topic: the concept key names a topic (logging,
// commit_message …) the terms lesson's sentence does not name, and the
// terms lesson names a Latin-script term the concept lesson's sentence
// does not match — "Keep commit titles short" is not "Keep log lines
// short" though both keep something short. A Korean word the glossary
// does not read may be the topic in other words, and is no evidence.
func otherTopic(conceptKey, termsLesson string, terms, conceptTerms []string) bool {
	ck, _ := sigFromKey(conceptKey)
	ts := cachedSignature(termsLesson)
	unsaid := false
	for _, e := range ck.elems {
		if c := conceptByID()[e]; c != nil && c.generic && !slices.Contains(ts.elems, e) {
			unsaid = true
		}
	}
	if !unsaid {
		return false
	}
	for _, t := range terms {
		if !isHangul(bare(t)) && !slices.ContainsFunc(conceptTerms, func(y string) bool { return termsMatch(t, y) }) {
			return true
		}
	}
	return false
}

// valuesSaid reports whether the terms lesson says, in its own words, each
// value the concept lesson prescribes: every term of the concept lesson
// that names one of the key's specific elements (a slot value, a polar
// action, a named convention: squash, korean, gofmt) matches a term of the
// terms lesson (termsMatch: a synonym, a stem, a loanword's sound) of the
// same polarity — "mock the database" is never "목 쓰지 마", though
// lessonOverlap lets one opposite term pass among more shared ones. The
// terms lesson names no such element in the table's words (else it would
// be keyed by it), so an unsaid value is most likely another one ("squash
// merge PRs" vs "use rebase merge for PRs": rebase is a value the table
// does not know).
func valuesSaid(conceptKey string, conceptTerms, terms []string) bool {
	ck, _ := sigFromKey(conceptKey)
	keyIDs := map[string]bool{}
	for _, e := range ck.elems {
		keyIDs[strings.TrimPrefix(e, notPrefix)] = true
	}
	for _, t := range conceptTerms {
		if !namesSpecific(bare(t), keyIDs) {
			continue
		}
		if !slices.ContainsFunc(terms, func(y string) bool {
			return termsMatch(t, y) && polarityAgrees(t, y)
		}) {
			return false
		}
	}
	return true
}

// namesSpecific reports whether term t, read over the concept table, names
// a specific (not generic) concept among ids.
func namesSpecific(t string, ids map[string]bool) bool {
	for _, e := range cachedSignature(t).elems {
		id := strings.TrimPrefix(e, notPrefix)
		if c := conceptByID()[id]; c != nil && ids[id] && !c.generic {
			return true
		}
	}
	return false
}

// conceptCovers reports whether the concept key says everything the
// sentence of a terms lesson names over the concept table, and nothing
// against it.
func conceptCovers(conceptKey, sentence string) bool {
	ck, ok := sigFromKey(conceptKey)
	if !ok {
		return false
	}
	ts := cachedSignature(sentence)
	for _, e := range ts.elems {
		if !slices.Contains(ck.elems, e) {
			return false
		}
	}
	for _, e := range ck.elems {
		if strings.HasPrefix(e, scopePrefix) {
			return false // a scoped rule is not the unscoped one
		}
	}
	_, _, conflict := compareSigs(ts, ck)
	return !conflict
}

// cachedLessonTerms is lessonTerms remembered per sentence (a recorded
// lesson's sentence is read again at every sighting), up to
// lessonTermsCacheMax sentences.
func cachedLessonTerms(s string) []string {
	if s == "" {
		return nil
	}
	if v, ok := lessonTermsCache.Load(s); ok {
		return v.([]string)
	}
	ts := lessonTerms(s)
	if lessonTermsCacheSize.Load() < lessonTermsCacheMax {
		if _, loaded := lessonTermsCache.LoadOrStore(strings.Clone(s), ts); !loaded {
			lessonTermsCacheSize.Add(1)
		}
	}
	return ts
}

// cachedSignature is readSignature of a sentence read alone, remembered
// the same way.
func cachedSignature(s string) lessonSig {
	if v, ok := lessonSigCache.Load(s); ok {
		return v.(lessonSig)
	}
	sig := readSignature(s, s)
	if lessonSigCacheSize.Load() < lessonTermsCacheMax {
		if _, loaded := lessonSigCache.LoadOrStore(strings.Clone(s), sig); !loaded {
			lessonSigCacheSize.Add(1)
		}
	}
	return sig
}

const lessonTermsCacheMax = 4096

var (
	lessonTermsCache     sync.Map // sentence → []string (read only)
	lessonTermsCacheSize atomic.Int64
	lessonSigCache       sync.Map // sentence → lessonSig (read only)
	lessonSigCacheSize   atomic.Int64
)
