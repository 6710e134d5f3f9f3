package capture

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	bilingual "memtrace/engine/concept"
)

// devGlossary is the curated bilingual (English–Korean) vocabulary of
// software work that lessons are written in: each row is one concept, its
// first word the canonical term a lesson key holds, then English words
// (whole lemmas) and Korean stems (a Korean word matches a stem it starts
// with, particles and endings after it; a one-syllable stem only when an
// ending follows, see koStemMatch; a form written with a trailing "=" only
// as the whole key stem: 초=, 분=). It is a general glossary of the trade —
// code, files, version control, tests, data, deployment, review,
// communication — not the wording of any one lesson; extend it by concept.
// English words the glossary does not hold are matched through WordNet
// (lessoncanon.go), Korean loanwords by their sound (loanword.go).
func devGlossary() [][]string {
	return [][]string{
		// Code structure.
		{"variable", "var", "vars", "variables", "변수"},
		{"function", "func", "functions", "method", "methods", "함수", "메서드", "메소드"},
		{"name", "names", "naming", "rename", "identifier", "이름", "네이밍", "명명"},
		{"abbreviate", "abbreviation", "abbreviations", "abbreviated", "abbrev", "shorten", "약어", "줄여", "줄이", "축약"},
		{"condition", "conditions", "conditional", "if", "조건", "조건문"},
		{"loop", "loops", "iterate", "iteration", "반복", "반복문", "루프"},
		{"nest", "nested", "nesting", "중첩"},
		{"return", "returns", "리턴", "반환"},
		{"early", "immediately", "바로", "일찍"},
		{"type", "types", "타입", "자료형"},
		{"class", "classes", "클래스"},
		{"module", "modules", "모듈"},
		{"package", "packages", "패키지"},
		{"library", "libraries", "lib", "라이브러리"},
		{"interface", "interfaces", "인터페이스"},
		{"struct", "structs", "구조체"},
		{"string", "strings", "문자열"},
		{"number", "numbers", "숫자", "번호"},
		{"comment", "comments", "주석"},
		{"code", "source", "코드", "소스"},
		{"duplicate", "duplicated", "duplication", "copy", "paste", "copypaste", "복붙", "복사", "붙여넣", "중복"},
		{"refactor", "refactoring", "refactored", "리팩터링", "리팩토링"},
		{"feature", "features", "기능"},
		{"bug", "bugs", "버그"},
		{"fix", "fixes", "수정", "고치", "고쳐"},
		{"change", "changes", "changed", "modify", "edit", "touch", "변경", "바꾸", "바꿔", "건드린", "건드", "손대"},
		{"add", "insert", "include", "put", "넣", "추가", "담아", "담"},
		{"remove", "drop", "strip", "빼", "제거", "없애"},
		{"delete", "deletion", "erase", "rm", "지우", "지워", "삭제"},
		{"split", "separate", "divide", "break", "쪼개", "나누", "나눠", "분리", "따로"},
		{"small", "smaller", "tiny", "작게", "작은"},
		{"large", "big", "huge", "크게", "큰", "커요", "커서"},
		{"one", "single", "하나", "한"},
		{"first", "top", "beginning", "맨", "처음", "먼저", "위"},
		{"conclusion", "answer", "result", "summary", "결론", "요약", "결과"},
		{"description", "explain", "explanation", "describe", "detail", "details", "설명", "자세히"},
		// Files and search.
		{"file", "files", "파일"},
		{"directory", "folder", "dir", "디렉터리", "디렉토리", "폴더"},
		{"path", "paths", "경로"},
		{"search", "find", "lookup", "검색", "찾", "찾아"},
		{"format", "formatting", "formatter", "reformat", "포맷", "포매터", "포맷터"},
		{"whole", "entire", "all", "everything", "전체", "모든", "전부"},
		{"repository", "repo", "repos", "레포", "저장소"},
		// Version control and review.
		{"commit", "commits", "커밋"},
		{"branch", "branches", "브랜치"},
		{"merge", "merges", "머지", "병합"},
		{"pull_request", "pr", "prs", "pull", "풀리퀘", "풀리퀘스트"},
		{"open", "create", "submit", "raise", "열", "올리", "올려", "만들"},
		{"review", "reviews", "reviewer", "reviewers", "리뷰", "검토"},
		{"ask", "confirm", "confirmation", "permission", "approve", "물어", "물어보", "확인", "허락", "컨펌"},
		{"ticket", "tickets", "issue", "issues", "티켓", "이슈"},
		{"link", "links", "url", "링크"},
		// Tests.
		{"test", "tests", "testing", "테스트"},
		{"case", "cases", "케이스", "사례"},
		{"table", "tables", "테이블", "표"},
		{"integration", "통합"},
		{"mock", "mocks", "mocked", "mocking", "fake", "stub", "목", "모킹", "목킹", "가짜"},
		{"real", "actual", "genuine", "진짜", "실제"},
		// Data and deployment.
		{"database", "db", "데이터베이스", "디비"},
		{"migration", "migrations", "migrate", "마이그레이션"},
		{"production", "prod", "live", "운영", "프로덕션", "상용"},
		{"staging", "스테이징"},
		{"release", "deploy", "deployment", "ship", "배포", "릴리스", "릴리즈"},
		{"pipeline", "pipelines", "ci", "파이프라인"},
		{"container", "containers", "docker", "컨테이너", "도커"},
		{"server", "servers", "서버"},
		{"run", "execute", "돌리", "돌려", "실행", "치"},
		{"directly", "manually", "yourself", "hand", "직접", "수동"},
		{"automatic", "automatically", "own", "자동", "자동으로", "알아서"},
		// Communication.
		{"reply", "replies", "response", "respond", "message", "답변", "답장", "응답", "대답"},
		{"emoji", "emojis", "emoticon", "이모지", "이모티콘"},
		{"language", "languages", "언어"},
		{"python", "파이썬"},
		{"javascript", "js", "자바스크립트"},
		{"typescript", "ts", "타입스크립트"},
		{"golang", "go", "고랭"},
		// Shape and size of code and output.
		{"line", "lines", "줄", "라인"},
		{"keep", "maintain", "preserve", "유지", "지키", "지켜"},
		{"part", "parts", "portion", "section", "부분"},
		{"show", "display", "expose", "reveal", "보여주", "보여줘", "표시", "표기", "노출"},
		{"size", "sizes", "크기", "사이즈"},
		{"value", "values", "값"},
		{"parameter", "parameters", "param", "params", "argument", "arguments", "arg", "args", "인자", "인수", "매개변수", "파라미터"},
		{"keyword", "keywords", "키워드", "예약어"},
		{"uppercase", "upper", "대문자"},
		{"lowercase", "lower", "소문자"},
		{"script", "scripts", "스크립트"},
		{"shell", "셸", "쉘"},
		{"command", "commands", "cmd", "명령", "명령어", "커맨드"},
		{"privilege", "privileges", "권한"},
		{"error", "errors", "에러", "오류"},
		{"debug", "debugging", "디버그", "디버깅"},
		{"print", "prints", "output", "출력"},
		{"import", "imports", "임포트"},
		{"export", "exports", "익스포트", "내보내"},
		{"version", "versions", "버전"},
		{"tag", "tags", "태그"},
		{"image", "images", "이미지"},
		{"exact", "exactly", "precise", "정확"},
		{"binary", "binaries", "바이너리"},
		{"plugin", "plugins", "플러그인"},
		{"hyphen", "dash", "하이픈"},
		{"font", "fonts", "폰트", "글꼴"},
		// Documentation and explanation.
		{"doc", "docs", "document", "documents", "documentation", "문서", "도큐먼트"},
		{"official", "공식"},
		{"behavior", "behaviour", "동작", "작동"},
		{"reason", "rationale", "이유", "근거"},
		{"need", "needs", "require", "required", "necessary", "필요"},
		{"term", "terms", "terminology", "jargon", "용어"},
		{"translate", "translation", "번역"},
		{"question", "questions", "질문"},
		{"request", "requests", "요청"},
		{"ambiguous", "unclear", "vague", "애매", "모호"},
		// Units, numbers and money.
		{"metric", "미터법"},
		{"fahrenheit", "화씨"},
		{"celsius", "섭씨"},
		{"mile", "miles", "마일"},
		{"amount", "amounts", "money", "price", "prices", "금액", "가격"},
		{"comma", "commas", "쉼표", "콤마"},
		{"digit", "digits", "자릿수", "자리"},
		{"separator", "separators", "구분자"},
		{"speed", "fast", "faster", "quick", "빠르", "빨라", "속도"},
		{"slow", "forever", "느리", "느려"},
		// Languages, quoting, installing, design.
		{"english", "영어", "영문"},
		{"korean", "한국어", "한글"},
		{"quote", "quotes", "quoted", "quotation", "따옴표", "큰따옴표", "작은따옴표", "인용"},
		{"install", "installs", "installation", "설치"},
		{"compare", "comparison", "비교"},
		{"inheritance", "inherit", "subclass", "상속"},
		{"composition", "조합", "합성"},
		{"hierarchy", "계층"},
		{"timeout", "timeouts", "타임아웃", "시간제한"},
		{"client", "clients", "클라이언트"},
		{"block", "blocks", "블록", "블럭"},
		{"lockfile", "lock", "락파일"},
		{"dependency", "dependencies", "deps", "dep", "의존성", "디펜던시"},
		// Review, order and lists.
		{"problem", "problems", "문제", "문제점"},
		{"severity", "serious", "severe", "critical", "심각", "심각도", "치명"},
		{"priority", "priorities", "prioritize", "우선순위", "우선"},
		{"order", "ordering", "sequence", "순서", "차례", "순으로"},
		{"sort", "sorted", "sorting", "정렬"},
		// Values that WordNet holds as antonyms (wordnet.Opposed): two
		// values of one frame, never one word (lessonlexicon.go).
		{"ascending", "ascend", "오름차순"},
		{"descending", "descend", "내림차순"},
		{"increase", "increment", "늘리", "늘려", "증가"},
		{"decrease", "reduce", "decrement", "감소", "낮추", "낮춰"},
		{"global", "globals", "전역"},
		{"local", "locals", "지역", "로컬"},
		{"last", "bottom", "final", "마지막", "하단"},
		{"list", "lists", "listing", "enumerate", "목록", "나열", "리스트"},
		{"option", "options", "choice", "choices", "alternative", "alternatives", "선택지", "옵션", "대안"},
		{"bullet", "bullets", "글머리", "불릿"},
		{"symbol", "symbols", "기호"},
		{"heading", "headings", "header", "headers", "title", "titles", "subject", "subjects", "제목", "헤더", "헤딩"},
		{"relevant", "related", "relevance", "관련", "관련된", "상관있"},
		{"irrelevant", "unrelated", "무관", "상관없"},
		{"example", "examples", "sample", "samples", "예시", "예제", "샘플"},
		{"warning", "warnings", "경고"},
		{"trace", "traces", "stacktrace", "traceback", "트레이스", "트레이스백"},
		{"whitespace", "blank", "blanks", "공백", "빈칸"},
		{"trail", "trailing", "end", "ends", "끝", "맨끝"},
		// Writing: grammar, tone and politeness.
		{"tense", "tenses", "시제"},
		{"past", "과거", "과거형"},
		{"imperative", "명령형"},
		{"tone", "tones", "voice", "말투", "어조", "톤"},
		{"formal", "polite", "politely", "honorific", "honorifics", "존댓말", "존대", "높임말", "공손"},
		{"casual", "informal", "반말", "편하게"},
		{"apologize", "apologise", "apology", "apologies", "sorry", "사과", "죄송", "미안"},
		{"compliment", "compliments", "praise", "flattery", "칭찬", "아부"},
		{"start", "starts", "begin", "begins", "opener", "opening", "시작"},
		{"mention", "mentions", "mentioned", "talk", "talks", "언급", "얘기", "이야기"},
		// Dates, times and durations.
		{"deadline", "deadlines", "due", "마감", "마감일", "기한"},
		{"weekday", "weekdays", "요일"},
		{"timestamp", "timestamps", "타임스탬프"},
		{"timezone", "timezones", "시간대", "타임존"},
		{"duration", "durations", "기간", "시간="},
		{"second", "seconds", "sec", "secs", "초="},
		{"millisecond", "milliseconds", "ms", "msec", "밀리초"},
		{"minute", "minutes", "mins", "분="},
		// Configuration, generation and tools.
		{"config", "configs", "configuration", "settings", "setting", "설정", "환경설정", "컨피그"},
		{"generate", "generated", "codegen", "생성", "자동생성"},
		{"parse", "parsing", "parser", "파싱", "파서", "구문분석"},
		{"sign", "signed", "signing", "signature", "서명", "사인"},
		{"key", "keys", "키"},
		{"report", "reports", "보고", "리포트", "보고서"},
		{"byte", "bytes", "바이트"},
		{"unit", "units", "단위"},
	}
}

// glossary indexes devGlossary: English word → canonical, and the Korean
// stems with their canonical, longest first.
type glossaryIndex struct {
	en map[string]string
	ko []koStem
}

// koStem is one Korean form of a row; exact forms (written with a
// trailing "=" in the table: 초=, 분=) match only a key stem equal to them
// — a one-syllable unit word that starts many other words (초기화, 분석).
type koStem struct {
	stem, canon string
	exact       bool
}

var glossary = sync.OnceValue(func() glossaryIndex {
	g := glossaryIndex{en: map[string]string{}}
	for _, row := range devGlossary() {
		for _, w := range row {
			if isHangul(w) {
				stem, exact := strings.CutSuffix(w, "=")
				g.ko = append(g.ko, koStem{stem, row[0], exact})
			} else if _, ok := g.en[w]; !ok {
				g.en[w] = row[0]
			}
		}
	}
	// Longest stem first, so 반복문 wins over 반복.
	for i := 1; i < len(g.ko); i++ {
		for j := i; j > 0 && len(g.ko[j].stem) > len(g.ko[j-1].stem); j-- {
			g.ko[j], g.ko[j-1] = g.ko[j-1], g.ko[j]
		}
	}
	return g
})

// glossKorean returns the canonical term of a Korean word (particles may
// still follow it), or "".
func glossKorean(w string) string {
	for _, s := range glossary().ko {
		if s.exact && w == s.stem || !s.exact && koStemMatch(w, s.stem) {
			return s.canon
		}
	}
	return ""
}

// koStemMatch reports whether Korean word w is stem with an ending: a stem
// of two or more syllables may be followed by anything; a one-syllable stem
// (넣, 빼, 열) only by the word's end or a verb ending or particle, so 열
// does not match 열심히.
func koStemMatch(w, stem string) bool {
	if !strings.HasPrefix(w, stem) {
		return false
	}
	rest := w[len(stem):]
	if rest == "" || utf8.RuneCountInString(stem) >= 2 {
		return true
	}
	for _, end := range koVerbEndings {
		if strings.HasPrefix(rest, end) {
			return true
		}
	}
	return false
}

// koVerbEndings are the endings and particles that may follow a
// one-syllable stem.
var koVerbEndings = []string{"지", "어", "아", "고", "기", "는", "은", "을", "를", "으", "줘", "줄", "면", "서", "세요", "요", "게", "도"}

// conceptKorean reads a Korean word the glossary does not hold over the
// bilingual concept table of everyday words (engine/concept: 회의 ~
// meeting, 재료 ~ ingredient, 오전 ~ morning): the English word of its
// group, canonicalised as an English word of a lesson is, so "회의는 잡지
// 마" and "no meetings" name one term instead of an untranslated stem. A
// form of two or more syllables matches a word it starts (회의는, 재료를);
// a one-syllable form only as the whole word or its key stem (차를, not
// 차단). The table's first group holding a form wins. "" when none does.
func conceptKorean(w string) string {
	idx := conceptKoIndex()
	stem := ""
	for _, f := range idx.forms {
		if w == f || utf8.RuneCountInString(f) >= 2 && strings.HasPrefix(w, f) {
			stem = f
			break
		}
	}
	if stem == "" {
		if base := koKeyStem(w); base != "" && idx.head[base] != "" && utf8.RuneCountInString(base) == 1 {
			stem = base
		}
	}
	if stem == "" {
		return ""
	}
	return canonWord(idx.head[stem], false)
}

type conceptKo struct {
	head  map[string]string // Korean form → the English word heading its first group
	forms []string          // the Korean forms, longest first
}

var conceptKoIndex = sync.OnceValue(func() conceptKo {
	idx := conceptKo{head: map[string]string{}}
	for _, g := range bilingual.Groups() {
		en := ""
		for _, w := range g {
			if !isHangul(w) {
				en = w
				break
			}
		}
		if en == "" {
			continue
		}
		for _, w := range g {
			if isHangul(w) && idx.head[w] == "" {
				idx.head[w] = en
				idx.forms = append(idx.forms, w)
			}
		}
	}
	slices.SortStableFunc(idx.forms, func(a, b string) int { return len(b) - len(a) })
	return idx
})
