package capture

import (
	"slices"
	"strings"
	"testing"

	"memtrace/engine/wordnet"
)

// wnRelated reports whether two English verbs share a synset among their
// senses, or one's sense is a direct hypernym of the other's (ban is a
// kind of forbidding).
func wnRelated(a, b string) bool {
	sa, sb := wordnet.Senses(a, 'v'), wordnet.Senses(b, 'v')
	for _, x := range sa {
		if slices.Contains(sb, x) {
			return true
		}
		for _, y := range sb {
			if slices.Contains(wordnet.Hypernyms(x), y) || slices.Contains(wordnet.Hypernyms(y), x) {
				return true
			}
		}
	}
	return false
}

// TestPolarPairsFromWordNet keeps the curated English side of the
// rule-verb lexicon honest against WordNet: the two heads of a pair are
// antonyms, and every English form is a synonym (or a direct kind) of its
// head.
func TestPolarPairsFromWordNet(t *testing.T) {
	for _, p := range polarPairs() {
		if p.allow != "" && !wordnet.Opposed(p.allow, p.forbid) {
			t.Errorf("%s and %s are no WordNet antonyms", p.allow, p.forbid)
		}
		for head, forms := range map[string][]string{p.allow: p.allowEN, p.forbid: p.forbidEN} {
			if head == "" && len(forms) > 0 {
				t.Errorf("%v: forms without a head", forms)
			}
			for _, f := range forms {
				if !wnRelated(f, head) {
					t.Errorf("%s is no WordNet synonym of %s", f, head)
				}
			}
		}
	}
}

func TestPolarVerbsReadAsPolarity(t *testing.T) {
	has := func(ts []string, t string) bool { return slices.Contains(ts, t) }
	for _, c := range []struct {
		text string
		want []string // terms that must be there
		not  []string // terms that must not
	}{
		{"Forbid trailing commas in multi-line arrays.", []string{"not_comma", "not_trail"}, []string{"forbid", "comma"}},
		{"Allow trailing commas in multi-line arrays.", []string{"comma", "trail"}, []string{"allow", "not_comma"}},
		{"Exclude the vendor directory from code searches.", []string{"not_vendor"}, []string{"exclude"}},
		{"Disable telemetry by default.", []string{"not_telemetry"}, []string{"disable"}},
		{"Turn telemetry off by default.", []string{"not_telemetry"}, []string{"turn"}},
		{"Don't expose internal fields in API responses.", []string{"not_internal"}, []string{"not_show", "show"}},
		{"tsconfig에서 strict 모드 꺼줘", []string{"not_모드"}, nil},
		{"코드 검색할 때 vendor 폴더는 제외해줘", []string{"not_directory"}, []string{"제외"}},
		{"생성된 코드에서는 unused import 허용해줘", []string{"import"}, []string{"허용", "not_import"}},
	} {
		got := lessonTerms(c.text)
		for _, w := range c.want {
			if !has(got, w) {
				t.Errorf("%q: terms %v lack %s", c.text, got, w)
			}
		}
		for _, w := range c.not {
			if has(got, w) {
				t.Errorf("%q: terms %v hold %s", c.text, got, w)
			}
		}
	}
}

func TestAntonymValuesApart(t *testing.T) {
	for _, c := range [][2]string{
		{"Sort search results by date in ascending order.", "Sort search results by date in descending order."},
		{"검색 결과는 날짜 오름차순으로 정렬해줘", "검색 결과는 날짜 내림차순으로 정렬해줘"},
		{"Increase the retry limit for flaky tests.", "Decrease the retry limit for flaky tests."},
		{"Allow trailing commas in multi-line arrays.", "Forbid trailing commas in multi-line arrays."},
		{"Include the vendor directory in code searches.", "Exclude the vendor directory from code searches."},
	} {
		a, b := lessonTerms(c[0]), lessonTerms(c[1])
		if _, same := lessonOverlap(a, b); same {
			t.Errorf("%q (%s) and %q (%s) read as one lesson", c[0], strings.Join(a, "+"), c[1], strings.Join(b, "+"))
		}
	}
	for _, c := range [][2]string{
		{"Hide internal fields from API responses.", "Don't expose internal fields in API responses."},
		{"Disable telemetry in the CLI by default.", "Turn telemetry off by default in the CLI."},
		{"Forbid trailing commas in arrays.", "Don't allow trailing commas in arrays."},
	} {
		a, b := lessonTerms(c[0]), lessonTerms(c[1])
		if _, same := lessonOverlap(a, b); !same {
			t.Errorf("%q (%s) and %q (%s) read as two lessons", c[0], strings.Join(a, "+"), c[1], strings.Join(b, "+"))
		}
	}
}

// TestLessonsHelpPrintsTheTables: `memtrace help lessons` is printed from
// the tables the canonicaliser reads, every row of them.
func TestLessonsHelpPrintsTheTables(t *testing.T) {
	h := LessonsHelp()
	for _, want := range []string{"concept:", "terms:", "not_", "re_"} {
		if !strings.Contains(h, want) {
			t.Errorf("help lessons lacks the key format %q", want)
		}
	}
	for _, p := range polarPairs() {
		for _, w := range append(append(p.forbidEN, p.forbidKO...), p.allowEN...) {
			if !strings.Contains(h, w) {
				t.Errorf("help lessons lacks the rule verb %s", w)
			}
		}
	}
	for _, c := range conceptTable() {
		if !strings.Contains(h, "  "+c.id+" ") {
			t.Errorf("help lessons lacks concept %s", c.id)
		}
	}
	for _, row := range devGlossary() {
		if !strings.Contains(h, "  "+row[0]+" — ") {
			t.Errorf("help lessons lacks glossary row %s", row[0])
		}
	}
}

func TestTermsOppose(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Forbid trailing commas in multi-line arrays.", "Allow trailing commas in multi-line arrays.", true},
		{"Sort search results by date in ascending order.", "Sort search results by date in descending order.", true},
		{"Enable telemetry by default.", "Disable telemetry by default.", true},
		{"Allow trailing commas in multi-line arrays.", "Allow trailing commas in JSON files.", false},
		{"Disable telemetry by default.", "Turn telemetry off by default.", false},
	} {
		a, b := lessonTerms(c.a), lessonTerms(c.b)
		if got := termsOppose(a, b); got != c.want {
			t.Errorf("termsOppose(%v, %v) = %v, want %v", a, b, got, c.want)
		}
	}
	if termsOppose([]string{"not_global", "variable"}, []string{"global", "not_variable"}) {
		t.Error("a negation read on a phrase's other word supersedes")
	}
}
