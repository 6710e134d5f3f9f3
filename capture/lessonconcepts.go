package capture

import "regexp"

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
		{id: "spaces", slot: "indent_char", num: true, with: []string{"indent", "tabs"}, forms: lexicon{en: []string{"space", "spaces"}, ko: []string{"스페이스", "공백", "칸"}}},
		{id: "line_length", num: true, forms: lexicon{en: []string{"line length", "line limit", "lines max", "max line*", "line width", "characters per line", "column limit"}, ko: []string{"줄 길이", "줄길이", "줄당", "한 줄에"}}},
		{id: "gofmt", forms: lexicon{en: []string{"gofmt*", "go fmt", "goimports"}, ko: []string{"gofmt", "고fmt"}}},
		// Languages (of answers, messages, documents).
		{id: "korean", slot: "language", forms: lexicon{en: []string{"korean"}, ko: []string{"한국어", "한글"}}},
		{id: "english", slot: "language", forms: lexicon{en: []string{"english"}, ko: []string{"영어", "영문"}}},
		{id: "japanese", slot: "language", forms: lexicon{en: []string{"japanese"}, ko: []string{"일본어"}}},
		// Speech level (of Korean, and of any reply's register).
		{id: "formal_speech", slot: "speech_level", forms: lexicon{en: []string{"formal korean", "formal speech", "polite speech", "polite form*", "honorific*", "formal register", "formal tone", "jondaetmal"}, ko: []string{"존댓말", "존대", "높임말"}}},
		{id: "casual_speech", slot: "speech_level", forms: lexicon{en: []string{"casual speech", "casual korean", "informal speech", "informal korean", "casual tone", "banmal"}, ko: []string{"반말", "편하게 말"}}},
		{id: "answer", generic: true, forms: lexicon{en: []string{"answer*", "reply", "replies", "respond"}, ko: []string{"대답", "답변", "답해", "답하", "답을"}}},
		{id: "conclusion_first", hides: []string{"answer"}, forms: lexicon{en: []string{"first line", "conclusion first", "answer first", "bottom line first", "lead with the answer", "lead with the conclusion"}, ko: []string{"결론부터", "결론 먼저", "결론을 먼저", "맨 위에", "첫 줄에", "첫줄에"}}},
		{id: "short", object: true, slot: "length", forms: lexicon{en: []string{"short*", "brief*", "concise*", "terse", "tldr", "tl dr", "to the point"}, ko: []string{"짧게", "짧은", "간단히", "간결"}}},
		{id: "long", object: true, slot: "length", forms: lexicon{en: []string{"long", "lengthy", "verbose", "in detail", "full detail", "detailed", "preamble*"}, ko: []string{"길게", "자세히", "장황", "서론"}}},
		// Version control.
		{id: "commit_message", generic: true, forms: lexicon{en: []string{"commit message*", "commit msg*", "commit subject*"}, ko: []string{"커밋 메시지", "커밋메시지", "커밋 메세지"}}},
		{id: "conventional_commits", forms: lexicon{en: []string{"conventional commit*", "feat", "type scope", "fix chore"}, ko: []string{"컨벤셔널"}}},
		{id: "force_push", polar: true, hides: []string{"push"}, forms: lexicon{en: []string{"force push*", "push force", "push f", "forcepush*"}, ko: []string{"강제 푸시", "포스 푸시", "force push"}}},
		{id: "push", generic: true, forms: lexicon{en: []string{"push*"}, ko: []string{"푸시", "푸쉬"}}},
		{id: "squash", polar: true, forms: lexicon{en: []string{"squash*"}, ko: []string{"스쿼시"}}},
		{id: "one_change", forms: lexicon{en: []string{"one concern", "one change", "one thing per", "single concern", "split it up", "split them up", "split up", "smaller pr*", "small pr*"}, ko: []string{"한 가지", "한가지", "작게 쪼개", "쪼개서"}}},
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
		{id: "ask_first", object: true, polar: true, forms: lexicon{en: []string{"ask*", "check with me", "permission", "approval", "confirmation"}, ko: []string{"물어", "확인받", "확인 받", "허락", "confirm 받", "컨펌"}}},
		{id: "pin_versions", object: true, forms: lexicon{en: []string{"pin*", "exact version*"}, ko: []string{"버전 고정", "고정 버전"}}},
		// Errors, panics, logging.
		{id: "error", generic: true, forms: lexicon{en: []string{"error", "errors", "err", "errorf"}, ko: []string{"에러", "오류"}}},
		{id: "wrap_errors", object: true, with: []string{"error"}, forms: lexicon{en: []string{"wrap*", "errorf"}, ko: []string{"감싸", "래핑"}}},
		{id: "panic", polar: true, forms: lexicon{en: []string{"panic*"}, ko: []string{"패닉", "panic"}}},
		{id: "handler", generic: true, forms: lexicon{en: []string{"handler*"}, ko: []string{"핸들러"}}},
		{id: "logging", generic: true, forms: lexicon{en: []string{"log", "logs", "logging", "logger*"}, ko: []string{"로그", "로깅"}}},
		{id: "slog", slot: "log_tool", forms: lexicon{en: []string{"slog*"}}},
		{id: "zap", slot: "log_tool", forms: lexicon{en: []string{"zap", "zerolog", "logrus"}}},
		{id: "print", slot: "log_tool", forms: lexicon{en: []string{"println", "printf", "print", "prints", "fmt print*"}}},
		{id: "lowercase", object: true, slot: "letter_case", forms: lexicon{en: []string{"lowercase", "lower case", "lower-case"}, ko: []string{"소문자"}}},
		{id: "capital", object: true, slot: "letter_case", forms: lexicon{en: []string{"capital*", "uppercase", "upper case"}, ko: []string{"대문자"}}},
		{id: "emoji", polar: true, forms: lexicon{en: []string{"emoji*", "emoticon*"}, ko: []string{"이모지", "이모티콘"}}},
		{id: "period", polar: true, forms: lexicon{en: []string{"period", "full stop", "trailing dot"}, ko: []string{"마침표"}}},
		// Naming.
		{id: "snake_case", slot: "case_style", forms: lexicon{en: []string{"snake case", "snakecase"}, ko: []string{"스네이크"}}},
		{id: "camel_case", slot: "case_style", forms: lexicon{en: []string{"camelcase", "camel case"}, ko: []string{"카멜"}}},
		{id: "kebab_case", slot: "case_style", forms: lexicon{en: []string{"kebab case", "kebabcase"}, ko: []string{"케밥"}}},
		{id: "pascal_case", slot: "case_style", forms: lexicon{en: []string{"pascalcase", "pascal case"}, ko: []string{"파스칼"}}},
		{id: "json", generic: true, forms: lexicon{en: []string{"json"}, ko: []string{"제이슨"}}},
		{id: "abbreviated", slot: "name_style", forms: lexicon{en: []string{"abbreviat*", "abbrev*", "short names", "cryptic name*"}, ko: []string{"줄여 쓰", "줄여서", "줄임말", "약어"}}},
		{id: "spelled_out", slot: "name_style", forms: lexicon{en: []string{"spell out", "spell words out", "spell it out", "spell them out", "full words", "descriptive name*"}, ko: []string{"풀어서 써", "풀어 써", "풀어쓰"}}},
		// Control flow.
		{id: "early_return", forms: lexicon{en: []string{"return early", "early return*", "guard clause*", "early exit*", "bail out early"}, ko: []string{"바로 return", "바로 리턴", "얼리 리턴", "가드 클로즈", "가드 절"}}},
		// Comments and docs.
		{id: "comment", generic: true, forms: lexicon{en: []string{"comment", "comments", "commenting"}, ko: []string{"주석"}}},
		{id: "why", generic: true, forms: lexicon{en: []string{"why", "reason*", "rationale"}, ko: []string{"왜 ", "이유"}}},
		{id: "doc_comment", hides: []string{"comment"}, forms: lexicon{en: []string{"doc comment*", "godoc", "docstring*"}, ko: []string{"문서 주석"}}},
		// Data, SQL, secrets, migrations.
		{id: "sql", generic: true, forms: lexicon{en: []string{"sql", "query", "queries"}, ko: []string{"쿼리"}}},
		{id: "sql_params", forms: lexicon{en: []string{"parameteri*", "parametri*", "placeholder*", "prepared statement*", "bind param*", "args"}, ko: []string{"플레이스홀더", "바인딩"}}},
		{id: "concat", polar: true, forms: lexicon{en: []string{"concaten*", "concat", "sprintf", "string building"}, ko: []string{"이어붙", "이어 붙", "문자열 더", "sprintf"}}},
		{id: "secret", generic: true, forms: lexicon{en: []string{"api key*", "secret*", "token*", "credential*", "password*"}, ko: []string{"비밀번호", "토큰", "시크릿", "api 키"}}},
		{id: "hardcode", object: true, polar: true, forms: lexicon{en: []string{"hardcod*", "hard code*", "hard-cod*"}, ko: []string{"하드코딩", "박아", "박지"}}},
		{id: "env", generic: true, forms: lexicon{en: []string{"environment*", "env", "env var*", "dotenv"}, ko: []string{"환경변수", "환경 변수"}}},
		{id: "migration", generic: true, forms: lexicon{en: []string{"migration*"}, ko: []string{"마이그레이션"}}},
		{id: "edit", object: true, polar: true, forms: lexicon{en: []string{"edit*", "modify*", "change existing"}, ko: []string{"수정", "고치"}}},
		// Dates and times.
		{id: "date", generic: true, forms: lexicon{en: []string{"date", "dates"}, ko: []string{"날짜"}}},
		{id: "iso_date", forms: lexicon{en: []string{"iso 8601", "iso date*", "yyyy mm dd", "iso format"}}, re: regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)},
		{id: "clock_24h", slot: "clock", forms: lexicon{en: []string{"24 hour", "24h", "24hr", "24 hr", "military time"}, ko: []string{"24시간제", "24시간 형식", "24시간 표기"}}},
		{id: "clock_12h", slot: "clock", forms: lexicon{en: []string{"12 hour", "12h", "12hr", "am pm", "pm"}, ko: []string{"12시간제", "오전 오후"}}},
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
