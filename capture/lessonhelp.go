package capture

import (
	"fmt"
	"sort"
	"strings"
)

// LessonsHelp is `memtrace help lessons`: how a lesson is keyed, and the
// canonicaliser's tables as the code holds them (printed from them, so the
// help cannot drift from what is read).
func LessonsHelp() string {
	var b strings.Builder
	b.WriteString(`A correction's lesson is keyed by what it says, not how: rewordings in
English, Korean or both meet on one key, and opposites never share one.

Key formats (the contract; extended, never renamed):
  concept:ID+ID+value_N   a convention of the concept table below, with its
                          polarity (concept:not_japanese) and numbers
                          (concept:indent+spaces+value_2)
  terms:T+T+not_T+re_T    any other lesson: its canonical terms, sorted;
                          not_ = forbidden by the rule, re_ = named only in
                          a complaint beside it
  other keys              a lesson recorded under an explicit key is kept as is

How a terms key is read (capture/lessoncanon.go): clauses cut at , ; : —
and sentence ends; negation per clause — an English negator negates the
term after it, a Korean one (말고, 하지 마, 금지 …) the term before it; the
words to canonical terms (the glossary, WordNet base forms, Korean
everyday words by the bilingual concept table of engine/concept, Korean key
stems, loanwords by sound); markers, politeness, generic verbs, numbers
and ids dropped. A recorded lesson with enough shared terms of one
polarity is the same lesson; opposite polarity, a swapped value, other
names (jq vs yq), numbers that disagree (40 vs 15 lines) or two WordNet
antonyms (ascending vs descending) make two. A later opposite lesson
supersedes the earlier one: a concept key with the other value or
polarity, or a terms key saying the same terms with what one forbids
prescribed by the other, or a value swapped for its antonym.

Rule verbs (capture/lessonlexicon.go): each pair's English heads are WordNet
antonyms and every English form a WordNet synonym of its head; the forbidding
verb negates its whole object, the permitting one is no term (negated, its
negation passes on to the object: "don't expose X" = "hide X").
`)
	for _, p := range polarPairs() {
		allow := strings.Join(append(append([]string{}, p.allowEN...), p.allowKO...), ", ")
		if allow == "" {
			allow = "(use: a generic verb)"
		}
		fmt.Fprintf(&b, "  %s  vs  %s\n", allow, strings.Join(append(append([]string{}, p.forbidEN...), p.forbidKO...), ", "))
	}
	b.WriteString("  phrasal verbs: turn/switch/shut off → disable, turn/switch on → enable, leave out → omit\n")

	b.WriteString("\nConcept table (capture/lessonconcepts.go): ID [slot] — English | Korean forms.\n")
	b.WriteString("Two values of one slot are two lessons; forbidding one of a two-value slot\nprescribes the other.\n")
	for _, c := range conceptTable() {
		slot := ""
		if c.slot != "" {
			slot = " [" + c.slot + "]"
		}
		fmt.Fprintf(&b, "  %s%s — %s", c.id, slot, strings.Join(c.forms.en, ", "))
		if len(c.forms.ko) > 0 {
			fmt.Fprintf(&b, " | %s", strings.Join(c.forms.ko, ", "))
		}
		b.WriteByte('\n')
	}

	b.WriteString("\nGlossary (capture/lessongloss.go): canonical term — its English words and\nKorean stems; English words outside it go through WordNet.\n")
	rows := devGlossary()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	for _, row := range rows {
		fmt.Fprintf(&b, "  %s — %s\n", row[0], strings.Join(row[1:], ", "))
	}
	return b.String()
}
