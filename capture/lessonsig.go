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
//     ("영어로 답하지 말고 한국어로" → korean; "Don't use tabs" → not_tabs).
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

// conceptTable is the curated bilingual concept table: the conventions
// agents are corrected about, each with its English forms (whole words; a
// trailing * matches a prefix; a Latin word may carry a Korean particle)
// and Korean forms (substrings). Extend it with new conventions, not with
// the wording of one example.
func conceptTable() []concept {
	return []concept{
		// Indentation and layout.
		{id: "indent", generic: true, num: true, forms: lexicon{en: []string{"indent*"}, ko: []string{"들여쓰기", "인덴트"}}},
		{id: "tabs", slot: "indent_char", num: true, forms: lexicon{en: []string{"tab", "tabs"}, ko: []string{"탭"}}},
		{id: "spaces", slot: "indent_char", num: true, forms: lexicon{en: []string{"space", "spaces"}, ko: []string{"스페이스", "공백", "칸"}}},
		{id: "line_length", num: true, forms: lexicon{en: []string{"line length", "line limit", "lines max", "max line*", "line width", "characters per line", "column limit"}, ko: []string{"줄 길이", "줄길이", "줄당", "한 줄에"}}},
		{id: "gofmt", forms: lexicon{en: []string{"gofmt*", "go fmt", "goimports"}, ko: []string{"gofmt", "고fmt"}}},
		// Languages (of answers, messages, documents).
		{id: "korean", slot: "language", forms: lexicon{en: []string{"korean"}, ko: []string{"한국어", "한글"}}},
		{id: "english", slot: "language", forms: lexicon{en: []string{"english"}, ko: []string{"영어", "영문"}}},
		{id: "japanese", slot: "language", forms: lexicon{en: []string{"japanese"}, ko: []string{"일본어"}}},
		{id: "answer", generic: true, forms: lexicon{en: []string{"answer*", "reply", "replies", "respond"}, ko: []string{"대답", "답변", "답해", "답하", "답을"}}},
		{id: "short", slot: "length", forms: lexicon{en: []string{"short*", "brief*", "concise*", "terse", "tldr", "tl dr", "to the point"}, ko: []string{"짧게", "짧은", "간단히", "간결"}}},
		{id: "long", slot: "length", forms: lexicon{en: []string{"long", "lengthy", "verbose", "in detail", "full detail", "detailed", "preamble*"}, ko: []string{"길게", "자세히", "장황", "서론"}}},
		// Version control.
		{id: "commit_message", generic: true, forms: lexicon{en: []string{"commit message*", "commit msg*", "commit subject*"}, ko: []string{"커밋 메시지", "커밋메시지", "커밋 메세지"}}},
		{id: "conventional_commits", forms: lexicon{en: []string{"conventional commit*", "feat", "type scope", "fix chore"}, ko: []string{"컨벤셔널"}}},
		{id: "force_push", polar: true, hides: []string{"push"}, forms: lexicon{en: []string{"force push*", "push force", "push f", "forcepush*"}, ko: []string{"강제 푸시", "포스 푸시", "force push"}}},
		{id: "push", generic: true, forms: lexicon{en: []string{"push*"}, ko: []string{"푸시", "푸쉬"}}},
		{id: "squash", polar: true, forms: lexicon{en: []string{"squash*"}, ko: []string{"스쿼시"}}},
		{id: "pull_request", generic: true, forms: lexicon{en: []string{"pr", "prs", "pull request*"}, ko: []string{"풀 리퀘", "풀리퀘"}}},
		{id: "ticket", generic: true, forms: lexicon{en: []string{"ticket*", "jira", "issue link*", "issue number*"}, ko: []string{"티켓", "지라", "이슈 번호", "이슈 링크"}}},
		{id: "delete", generic: true, forms: lexicon{en: []string{"delet*", "rm", "rm rf", "erase*", "wipe*"}, ko: []string{"지우", "지워", "삭제"}}},
		// Tests and checks.
		{id: "test", generic: true, forms: lexicon{en: []string{"test", "tests", "testing", "test suite"}, ko: []string{"테스트"}}},
		{id: "table_driven_tests", hides: []string{"test"}, forms: lexicon{en: []string{"table-driven", "table driven", "tabledriven"}, ko: []string{"테이블 기반", "테이블 드리븐", "테이블드리븐"}}},
		{id: "lint", forms: lexicon{en: []string{"lint*", "golangci*", "vet"}, ko: []string{"린트", "린터"}}},
		{id: "mock", polar: true, forms: lexicon{en: []string{"mock*"}, ko: []string{"모킹", "목킹", "목 객체", "목업"}}},
		{id: "table_driven_tests", hides: []string{"test"}, forms: lexicon{en: []string{"table of cases", "table of test cases", "test table*", "case table*", "cases table*"}, ko: []string{"케이스 테이블", "테스트 테이블"}}},
		// Search tools.
		{id: "ripgrep", slot: "search_tool", forms: lexicon{en: []string{"rg", "ripgrep"}, ko: []string{"립그렙"}}},
		{id: "git_grep", slot: "search_tool", hides: []string{"grep"}, forms: lexicon{en: []string{"git grep"}}},
		{id: "grep", slot: "search_tool", forms: lexicon{en: []string{"grep"}, ko: []string{"그렙"}}},
		// Packages and dependencies.
		{id: "npm", slot: "package_manager", forms: lexicon{en: []string{"npm"}}},
		{id: "pnpm", slot: "package_manager", forms: lexicon{en: []string{"pnpm"}}},
		{id: "yarn", slot: "package_manager", forms: lexicon{en: []string{"yarn"}}},
		{id: "bun", slot: "package_manager", forms: lexicon{en: []string{"bun"}}},
		{id: "dependency", generic: true, forms: lexicon{en: []string{"dependenc*", "depend", "deps", "package", "packages", "go get"}, ko: []string{"의존성", "패키지"}}},
		{id: "ask_first", polar: true, forms: lexicon{en: []string{"ask*", "check with me", "permission", "approval", "confirmation"}, ko: []string{"물어", "확인받", "확인 받", "허락", "confirm 받", "컨펌"}}},
		{id: "pin_versions", forms: lexicon{en: []string{"pin*", "exact version*"}, ko: []string{"버전 고정", "고정 버전"}}},
		// Errors, panics, logging.
		{id: "error", generic: true, forms: lexicon{en: []string{"error", "errors", "err"}, ko: []string{"에러", "오류"}}},
		{id: "wrap_errors", forms: lexicon{en: []string{"wrap*", "errorf"}, ko: []string{"감싸", "래핑"}}},
		{id: "panic", polar: true, forms: lexicon{en: []string{"panic*"}, ko: []string{"패닉", "panic"}}},
		{id: "handler", generic: true, forms: lexicon{en: []string{"handler*"}, ko: []string{"핸들러"}}},
		{id: "logging", generic: true, forms: lexicon{en: []string{"log", "logs", "logging", "logger*"}, ko: []string{"로그", "로깅"}}},
		{id: "slog", slot: "log_tool", forms: lexicon{en: []string{"slog*"}}},
		{id: "zap", slot: "log_tool", forms: lexicon{en: []string{"zap", "zerolog", "logrus"}}},
		{id: "print", slot: "log_tool", forms: lexicon{en: []string{"println", "printf", "print", "prints", "fmt print*"}}},
		{id: "lowercase", slot: "letter_case", forms: lexicon{en: []string{"lowercase", "lower case", "lower-case"}, ko: []string{"소문자"}}},
		{id: "capital", slot: "letter_case", forms: lexicon{en: []string{"capital*", "uppercase", "upper case"}, ko: []string{"대문자"}}},
		{id: "emoji", polar: true, forms: lexicon{en: []string{"emoji*", "emoticon*"}, ko: []string{"이모지", "이모티콘"}}},
		{id: "period", polar: true, forms: lexicon{en: []string{"period", "full stop", "trailing dot"}, ko: []string{"마침표"}}},
		// Naming.
		{id: "snake_case", slot: "case_style", forms: lexicon{en: []string{"snake case", "snakecase"}, ko: []string{"스네이크"}}},
		{id: "camel_case", slot: "case_style", forms: lexicon{en: []string{"camelcase", "camel case"}, ko: []string{"카멜"}}},
		{id: "json", generic: true, forms: lexicon{en: []string{"json"}, ko: []string{"제이슨"}}},
		// Comments and docs.
		{id: "comment", generic: true, forms: lexicon{en: []string{"comment", "comments", "commenting"}, ko: []string{"주석"}}},
		{id: "why", generic: true, forms: lexicon{en: []string{"why", "reason*", "rationale"}, ko: []string{"왜 ", "이유"}}},
		{id: "doc_comment", hides: []string{"comment"}, forms: lexicon{en: []string{"doc comment*", "godoc", "docstring*"}, ko: []string{"문서 주석"}}},
		// Data, SQL, secrets, migrations.
		{id: "sql", generic: true, forms: lexicon{en: []string{"sql", "query", "queries"}, ko: []string{"쿼리"}}},
		{id: "sql_params", forms: lexicon{en: []string{"parameteri*", "parametri*", "placeholder*", "prepared statement*", "bind param*", "args"}, ko: []string{"플레이스홀더", "바인딩"}}},
		{id: "concat", polar: true, forms: lexicon{en: []string{"concaten*", "concat", "sprintf", "string building"}, ko: []string{"이어붙", "이어 붙", "문자열 더", "sprintf"}}},
		{id: "secret", generic: true, forms: lexicon{en: []string{"api key*", "secret*", "token*", "credential*", "password*"}, ko: []string{"비밀번호", "토큰", "시크릿", "api 키"}}},
		{id: "hardcode", polar: true, forms: lexicon{en: []string{"hardcod*", "hard code*", "hard-cod*"}, ko: []string{"하드코딩", "박아", "박지"}}},
		{id: "env", generic: true, forms: lexicon{en: []string{"environment*", "env", "env var*", "dotenv"}, ko: []string{"환경변수", "환경 변수"}}},
		{id: "migration", generic: true, forms: lexicon{en: []string{"migration*"}, ko: []string{"마이그레이션"}}},
		{id: "edit", polar: true, forms: lexicon{en: []string{"edit*", "modify*", "change existing"}, ko: []string{"수정", "고치"}}},
		// Dates and times.
		{id: "date", generic: true, forms: lexicon{en: []string{"date", "dates"}, ko: []string{"날짜"}}},
		{id: "iso_date", forms: lexicon{en: []string{"iso 8601", "iso date*", "yyyy mm dd", "iso format"}}, re: regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)},
		{id: "utc", slot: "timezone", forms: lexicon{en: []string{"utc", "gmt"}}},
		{id: "local_time", slot: "timezone", forms: lexicon{en: []string{"local time", "kst", "localtime"}, ko: []string{"한국 시간", "현지 시간", "로컬 시간"}}},
		// Interfaces and files.
		{id: "ui", generic: true, forms: lexicon{en: []string{"ui", "user facing", "user-facing", "frontend"}, ko: []string{"화면"}}},
		{id: "yaml", generic: true, forms: lexicon{en: []string{"yaml", "yml"}}},
		{id: "go_files", generic: true, forms: lexicon{en: []string{"go files", "go file", "go code", "golang"}, ko: []string{"go 파일", "고 파일"}}},
		{id: "dark_mode", forms: lexicon{en: []string{"dark mode", "dark theme"}, ko: []string{"다크 모드", "다크모드"}}},
		{id: "markdown_tables", forms: lexicon{en: []string{"markdown table*"}, ko: []string{"마크다운 표"}}},
		{id: "release_notes_bilingual", hides: []string{"korean", "english"}, forms: lexicon{en: []string{"release notes in both"}, ko: []string{"릴리스 노트는 한국어랑 영어"}}},
	}
}

// Negators. preNegators negate what follows them in a clause,
// postNegators what precedes them. Removing is negating: "remove the
// emojis" and "이모지 빼줘" forbid what "no emojis" forbids.
func preNegators() lexicon {
	return lexicon{en: []string{"not", "no", "never", "don't", "dont", "doesn't", "shouldn't", "stop", "avoid", "without", "instead of", "rather than", "nor", "no more", "quit", "remove", "drop", "strip", "get rid of"}}
}

func postNegators() lexicon {
	return lexicon{
		en: []string{"banned", "forbidden", "prohibited", "not allowed", "is a no", "nothing", "none"},
		ko: []string{"지 마", "지마", "지 말", "지말", "말고", "말구", "말라", "금지", "안 돼", "안돼", "없이", "빼고", "빼줘", "빼 줘", "빼주", "빼요", "없애", "하지 않"},
	}
}

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
	if sig.keyed() || lesson == message {
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
	text = fileNames.ReplaceAllString(text, " ")
	order := 0
	for _, cl := range lessonClauses(text) {
		norm := lexNorm(cl)
		pre := wordPositions(norm, preNegators())
		post := wordPositions(norm, postNegators())
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
				hits = append(hits, sigHit{id: c.id, order: order*100000 + p, negated: neg(p)})
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
	set := map[string]bool{}
	slotPos, slotNeg := map[string]string{}, map[string]string{}
	numeric := false
	for _, h := range hits {
		c := byID[h.id]
		if hidden[c.id] {
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
		if slotPos[slot] == "" {
			set[v] = true
		}
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
