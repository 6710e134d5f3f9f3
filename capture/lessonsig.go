package capture

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The lesson's signature: what a lesson prescribes and forbids, read from
// its corrective sentences only (see lessonText), in either language.
//
//   - Concepts come from the bilingual concept table (conceptTable). A
//     topic concept (commit_message, comment, test, push …) counts when
//     named; a polar concept (an action: panic, force_push, squash, mock,
//     hardcode …) keeps its polarity — "not_panic" for "never panic" /
//     "panic 쓰지 마", "panic" for "panic in tests is fine"; a slot concept
//     is one value of a slot (indent_char: tabs | spaces; language: korean
//     | english …) and the slot keeps the value prescribed: the first value
//     named outside a negation, else "not_" + the first one negated
//     ("영어로 답하지 말고 한국어로" → korean; "Don't use Japanese" →
//     not_japanese); in a slot of two values the negated one prescribes
//     the other ("Don't use tabs" → spaces, "줄여 쓰지 마" → spelled_out).
//   - Negation is read per clause (a sentence cut at , ; : — ! ?): an English negator (not, no, never, don't, stop, avoid,
//     without, instead of …) negates what follows it in its clause (two
//     negate each other: "don't add a package without asking" asks), a
//     post-negator (banned, forbidden; 하지 마, 말고, 금지, 없이 …) what
//     precedes it — Korean puts the negation after its object.
//   - A numeric concept (indent, spaces, tabs, line_length) takes a value
//     slot: the first number (digits or an English number word) outside a
//     negation, so "2 spaces, not 4" is value_2 and "80 characters" and
//     "120" are different lessons. No other number, hex id or token with a
//     digit is ever a key term.
//
// The key is "concept:" + the sorted elements (concepts, slot values,
// value_N) when the text names a slot, a polar concept, a value or two
// topics; a text naming one bare topic or none is keyed by its content
// terms (lessonkey.go).
type lessonSig struct {
	elems []string // sorted
}

// concept is one entry of the bilingual concept table.
type concept struct {
	id    string
	slot  string // "" : not a slot value
	polar bool   // an action whose negation is a different lesson
	num   bool   // takes a numeric value
	forms lexicon
	re    *regexp.Regexp // a written pattern that names it (2026-03-01)
	hides []string       // concepts it subsumes (force_push hides push)
	// generic: a broad topic (comment, test, error …) that alone does not
	// say what the lesson is; a specific convention (gofmt, slog) does.
	generic bool
	// object: a predicate that acts on an object the sentence names
	// (pin, short, wrap, ask first, upper case: pin what, short what);
	// alone it is a thin key (thinSig, lessonobject.go).
	object bool
	// with: the concept is its action on one of these concepts only
	// (wrap_errors wraps errors: "코드 블록으로 감싸서" wraps none), so it
	// is read only where one of them is named too — or, for a numeric
	// concept, a number ("2 spaces": spaces are an indent character only
	// in the frame of indentation, "줄 끝에 공백" is whitespace).
	with []string
}

// concepts is conceptTable built once (read only), forms normalised.
var concepts = sync.OnceValue(func() []concept {
	cs := conceptTable()
	for i := range cs {
		for j, f := range cs[i].forms.en {
			star := strings.HasSuffix(f, "*")
			f = strings.TrimSpace(lexNorm(strings.TrimSuffix(f, "*")))
			if star {
				f += "*"
			}
			cs[i].forms.en[j] = f
		}
	}
	return cs
})

// Negators. preNegators negate what follows them in a clause,
// postNegators what precedes them. Removing is negating: "remove the
// emojis" and "이모지 빼줘" forbid what "no emojis" forbids.
func preNegators() lexicon { return negators().pre }

func postNegators() lexicon { return negators().post }

// negators are the negation words, read once: English pre-negators and
// the forbidding verbs of the rule-verb lexicon (forbid, exclude, disable,
// hide …: lessonlexicon.go) before what they negate; post-negators after
// it, the Korean forbidding verbs' forms among them (제외해, 꺼줘, 숨겨줘).
var negators = sync.OnceValue(func() struct{ pre, post lexicon } {
	pre := lexicon{en: []string{"not", "no", "never", "don't", "dont", "doesn't", "shouldn't", "stop", "without", "instead of", "rather than", "nor", "no more", "quit", "remove", "drop", "strip", "get rid of"}}
	pre.en = append(pre.en, polarWords().preEN...)
	post := lexicon{
		en: []string{"banned", "forbidden", "prohibited", "not allowed", "is a no", "nothing", "none"},
		ko: []string{"지 마", "지마", "지 말", "지말", "말고", "말구", "말라", "금지", "안 돼", "안돼", "없이", "빼고", "빼줘", "빼 줘", "빼주", "빼요", "없애", "하지 않", "그만"},
	}
	post.ko = append(post.ko, polarNegatorsKO()...)
	return struct{ pre, post lexicon }{pre, post}
})

// conceptByID indexes the table.
var conceptByID = sync.OnceValue(func() map[string]*concept {
	out := map[string]*concept{}
	cs := concepts()
	for i := range cs {
		out[cs[i].id] = &cs[i]
	}
	return out
})

// occurrence is one place a concept (or a number) is named.
type sigHit struct {
	id      string
	order   int // reading order
	negated bool
	context bool // named in a condition or a recounting (lessoncontext.go)
}

// fileNames are written file names ("package-lock.json", "go.mod"): what
// a file is called says nothing about what the lesson is about.
var fileNames = regexp.MustCompile(`\b[\w-]+\.(?:json|ya?ml|lock|toml|mod|sum|go|js|ts|py|md|txt|sql)\b`)

// lessonSignature reads the signature of a message's lesson text (see
// lessonText). A lesson sentence that names a value but not what it is
// about ("Always two.") or only one topic ("explain the reason instead")
// takes its subject from the whole message when that names more and holds
// everything the sentence named; the value is still read from the lesson
// sentence first.
func lessonSignature(message, lesson string) lessonSig {
	sig := readSignature(lesson, lesson)
	if sig.keyed() || lesson == message || objectTerms(lesson) >= thinObjectTerms {
		// A sentence that names its own object is not about a concept
		// another sentence of the message names ("… panic 날 것 같아요.
		// lib 코드에선 ? 써서 Result로 넘겨줘"; "… load test 아직 40%쯤 …
		// migration script는 항상 IF NOT EXISTS 넣어서 idempotent하게 짜줘":
		// the status talk's test is not the rule's).
		return sig
	}
	whole := readSignature(message, lesson)
	if !whole.keyed() {
		return sig
	}
	for _, e := range sig.elems {
		if !slices.Contains(whole.elems, e) {
			return sig
		}
	}
	return whole
}

// readSignature reads the concepts and scope of subject and the value of
// values (else of subject).
func readSignature(subject, values string) lessonSig {
	hits, nums := readHits(subject)
	if values != subject {
		if _, vn := readHits(values); len(vn) > 0 {
			nums = vn
		}
	}
	sig := signature(hits, nums)
	if sc := namedScope(subject); sc != "" {
		sig.elems = append(sig.elems, scopePrefix+sc)
		slices.Sort(sig.elems)
	}
	return sig
}

const scopePrefix = "scope_"

// Named scopes: "in the web repository", "for the legacy-admin repo",
// "billing 레포에서는". A lesson scoped to a named repository, project or
// service is not the same lesson as the unscoped one (this repo, our
// project and the like name no scope).
var (
	scopeEN = regexp.MustCompile(`(?i)\b(?:in|for|on|inside) (?:the )?([\w-]+) (?:repo|repository|project|service|codebase|monorepo|app)\b`)
	scopeKO = regexp.MustCompile(`([\w-]+) ?(?:레포|저장소|프로젝트|서비스)(?:에서|에선|는|에서는)`)
)

var notScopeNames = map[string]bool{"this": true, "that": true, "our": true, "my": true, "your": true, "the": true, "every": true, "each": true, "all": true, "any": true, "이": true, "우리": true, "이번": true}

func namedScope(text string) string {
	for _, re := range []*regexp.Regexp{scopeEN, scopeKO} {
		if m := re.FindStringSubmatch(text); m != nil && !notScopeNames[strings.ToLower(m[1])] {
			return strings.ToLower(m[1])
		}
	}
	return ""
}

// readHits finds the concepts and numbers text names, with their
// negation.
func readHits(text string) (hits, nums []sigHit) {
	text = readPhrasal(codeNegation(fileNames.ReplaceAllString(text, " ")))
	order := 0
	for _, sc := range sigClauses(text) {
		cl := sc.text
		norm := lexNorm(cl)
		pre, post := cancelForgetting(norm, wordPositions(norm, preNegators()), wordPositions(norm, postNegators()))
		neg := func(p int) bool {
			n := 0 // "don't add a package without asking": two negations affirm
			for _, q := range pre {
				if q < p {
					n++
				}
			}
			if n%2 == 1 {
				return true
			}
			for _, q := range post {
				if q > p {
					return true
				}
			}
			return false
		}
		for _, c := range concepts() {
			ps := formPositions(norm, c.forms)
			if c.re != nil && c.re.MatchString(cl) {
				ps = append(ps, 0)
			}
			for _, p := range ps {
				hits = append(hits, sigHit{id: c.id, order: order*100000 + p, negated: neg(p), context: sc.context})
			}
		}
		for _, n := range numberPositions(norm) {
			nums = append(nums, sigHit{id: n.id, order: order*100000 + n.order, negated: neg(n.order)})
		}
		order++
	}
	return hits, nums
}

// signature builds the signature from what readHits found.
func signature(hits, nums []sigHit) lessonSig {
	slices.SortStableFunc(hits, func(a, b sigHit) int { return a.order - b.order })
	byID := conceptByID()
	hidden := map[string]bool{}
	for _, h := range hits {
		for _, x := range byID[h.id].hides {
			hidden[x] = true
		}
	}
	named := map[string]bool{}
	for _, h := range hits {
		named[h.id] = true
	}
	set := map[string]bool{}
	slotPos, slotNeg := map[string]string{}, map[string]string{}
	ruled := map[string]bool{} // slots with a value named outside context
	for _, h := range hits {
		if c := byID[h.id]; c.slot != "" && !h.context && !hidden[c.id] {
			ruled[c.slot] = true
		}
	}
	numeric := false
	for _, h := range hits {
		c := byID[h.id]
		if hidden[c.id] || c.slot != "" && h.context && ruled[c.slot] ||
			len(c.with) > 0 && !slices.ContainsFunc(c.with, func(w string) bool { return named[w] }) && !(c.num && len(nums) > 0) {
			continue
		}
		numeric = numeric || c.num
		switch {
		case c.slot != "":
			if !h.negated && slotPos[c.slot] == "" {
				slotPos[c.slot] = c.id
			} else if h.negated && slotNeg[c.slot] == "" {
				slotNeg[c.slot] = "not_" + c.id
			}
		case c.polar:
			if h.negated {
				set["not_"+c.id] = true
			} else if !set["not_"+c.id] {
				set[c.id] = true
			}
		default:
			set[c.id] = true
		}
	}
	for slot, v := range slotNeg {
		if slotPos[slot] != "" {
			continue
		}
		if other := otherValue(slot, strings.TrimPrefix(v, "not_")); other != "" {
			v = other // a slot of two values: "don't use tabs" prescribes spaces
		}
		set[v] = true
	}
	for _, v := range slotPos {
		set[v] = true
	}
	if numeric {
		var first, firstNeg string
		for _, n := range nums {
			if !n.negated && first == "" {
				first = n.id
			} else if n.negated && firstNeg == "" {
				firstNeg = n.id
			}
		}
		if first != "" {
			set["value_"+first] = true
		} else if firstNeg != "" {
			set["value_not_"+firstNeg] = true
		}
	}
	var elems []string
	for e := range set {
		elems = append(elems, e)
	}
	slices.Sort(elems)
	return lessonSig{elems: elems}
}

// slotValues lists the values of each slot of the concept table.
var slotValues = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, c := range concepts() {
		if c.slot != "" {
			out[c.slot] = append(out[c.slot], c.id)
		}
	}
	return out
})

// otherValue is the one other value of a slot of exactly two ("" for a
// slot of more: "not Korean" says nothing of which language).
func otherValue(slot, id string) string {
	vs := slotValues()[slot]
	if len(vs) != 2 {
		return ""
	}
	if vs[0] == id {
		return vs[1]
	}
	return vs[0]
}

// keyed reports whether the signature is specific enough to key a lesson
// by: two elements, or one that is a slot value, a polar concept, a value,
// a scope or a specific convention.
func (s lessonSig) keyed() bool {
	if len(s.elems) >= 2 {
		return true
	}
	if len(s.elems) == 1 {
		id, slot, polar, value := elemKind(s.elems[0])
		c := conceptByID()[id]
		return slot != "" || polar || value || c != nil && !c.generic
	}
	return false
}

func (s lessonSig) key() string { return conceptPrefix + strings.Join(s.elems, "+") }

const conceptPrefix = "concept:"

// elemKind describes one element of a concept key: its concept id, its
// slot, whether it is a polar concept, whether it is a value.
func elemKind(e string) (id, slot string, polar, value bool) {
	if strings.HasPrefix(e, "value_") {
		return e, "value", false, true
	}
	if strings.HasPrefix(e, scopePrefix) {
		return e, "scope", false, false
	}
	id = strings.TrimPrefix(e, "not_")
	if c, ok := conceptByID()[id]; ok {
		return id, c.slot, c.polar, false
	}
	return id, "", false, false
}

// sigFromKey recovers the signature of a concept key (ok false otherwise).
func sigFromKey(key string) (lessonSig, bool) {
	rest, ok := strings.CutPrefix(key, conceptPrefix)
	if !ok || rest == "" {
		return lessonSig{}, false
	}
	return lessonSig{elems: strings.Split(rest, "+")}, true
}

// compareSigs compares two signatures: conflict when they prescribe
// different things on a shared subject (another slot value, the opposite
// polarity, another number); otherwise shared elements, and whether they
// are the same lesson: equal, or one holds the other with one element
// more (a rewording that names one subject more or less).
func compareSigs(a, b lessonSig) (shared int, same, conflict bool) {
	type part struct{ id, val string }
	index := func(s lessonSig) map[string]part {
		m := map[string]part{}
		for _, e := range s.elems {
			id, slot, polar, value := elemKind(e)
			switch {
			case value:
				m["value"] = part{"value", e}
			case slot != "":
				m["slot:"+slot] = part{slot, e}
			case polar:
				m["polar:"+id] = part{id, e}
			default:
				m[e] = part{e, e}
			}
		}
		return m
	}
	ia, ib := index(a), index(b)
	if (ia["value"] == part{}) != (ib["value"] == part{}) {
		delete(ia, "value") // a value said once and left out once agrees
		delete(ib, "value")
	}
	if (ia["slot:scope"] == part{}) != (ib["slot:scope"] == part{}) {
		return 0, false, false // a scoped lesson is not the unscoped one
	}
	for k, pa := range ia {
		if pb, ok := ib[k]; ok {
			if pa.val != pb.val {
				conflict = true
			} else {
				shared++
			}
		}
	}
	if conflict {
		return shared, false, true
	}
	lo, hi := min(len(ia), len(ib)), max(len(ia), len(ib))
	return shared, lo > 0 && shared == lo && hi-lo <= 1, false
}

// opposes reports whether b, recorded earlier, is the opposite of a: they
// conflict and agree on everything else they name (same subject, other
// value or polarity), so a replaces b.
func opposes(a, b lessonSig) bool {
	_, _, conflict := compareSigs(a, b)
	if !conflict || len(a.elems) != len(b.elems) {
		return false
	}
	strip := func(s lessonSig) []string {
		var out []string
		for _, e := range s.elems {
			id, slot, polar, value := elemKind(e)
			switch {
			case value:
				out = append(out, "value")
			case slot != "":
				out = append(out, "slot:"+slot)
			case polar:
				out = append(out, id)
			default:
				out = append(out, e)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(strip(a), strip(b))
}
