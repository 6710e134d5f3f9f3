package filter

import (
	"regexp"
	"strings"
	"unicode"
)

// Length floors of L1, in characters of English text (runes, whitespace runs
// counted as one). The seed (000) used 20 raw and 50 after stripping memory
// tags, measured on English. A Hangul syllable is a whole written syllable and
// Korean drops the articles, auxiliaries and spaces English spends characters
// on: "저는 땅콩 알레르기가 있어요" (15 runes) says what "I am allergic to
// peanuts" (24) says. So for Korean the floors are half: 10 raw and 25
// stripped. Mixed text gets the floor in proportion to its script share:
// floor = base × (1 − 0.5 × hangulShare), where hangulShare is Hangul letters
// over all letters.
//
// The stripped floor (50/25) is meant for impersonal chatter ("that sounds
// like a plan, let's see how it goes"). A first-person statement or one that
// holds a number ("my daughter was born on 2019-03-03", "제 생일은 3월 3일")
// is a whole fact in fewer characters, so it only has to clear the raw floor.
//
// A self-statement — a first-person opening ("나", "저는", "I'm", "my") or a
// Korean elided-subject cue ("안 먹어", "하는 중") followed by a content word
// that is no acknowledgement — has half the raw floor (SelfStatementFactor):
// "나 비건이야" (6 runes, floor 5) and "밀가루 안 먹어, 글루텐 프리 하는 중"
// are kept, "응 고마워", "ㅇㅋ", "ㅋㅋㅋ", "ok" and "I'm fine" are not.
const (
	RawFloorEN      = 20
	StrippedFloorEN = 50
	KoreanFactor    = 0.5
)

// floor returns base scaled by the Hangul share of text.
func floor(base float64, text string) float64 {
	letters, hangul := 0, 0
	for _, r := range text {
		if isHangul(r) {
			hangul++
			letters++
		} else if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 0 {
		return base
	}
	return base * (1 - KoreanFactor*float64(hangul)/float64(letters))
}

// rawFloor is the raw floor for text: floor(RawFloorEN), scaled by
// SelfStatementFactor when text is a self-statement (isSelfStatement).
func rawFloor(text string, ack func(string) bool) float64 {
	f := floor(RawFloorEN, text)
	if f*SelfStatementFactor <= float64(measure(text)) && isSelfStatement(text, ack) {
		return f * SelfStatementFactor
	}
	return f
}

// measure is the rune length of text with whitespace runs counted once.
func measure(text string) int {
	n, space := 0, true
	for _, r := range strings.TrimSpace(text) {
		if unicode.IsSpace(r) {
			if !space {
				n++
			}
			space = true
			continue
		}
		space = false
		n++
	}
	return n
}

// hasAnchor reports whether text states something about the speaker, holds
// a number or gives a standing instruction: the cases that are a fact, a
// preference or a correction in fewer characters than the stripped floor.
func hasAnchor(text string) bool {
	for _, r := range text {
		if unicode.IsDigit(r) {
			return true
		}
	}
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
		switch strings.ToLower(w) {
		case "i", "i'm", "i’m", "i've", "i'd", "i'll", "my", "me", "mine", "we", "our", "we're",
			"always", "never", "don't", "don’t", "prefer", "please", "remember", "stop", "use":
			return true
		}
		for _, p := range []string{"저는", "저도", "제가", "나는", "나도", "내가", "우리", "저희", "제", "내", "난", "전", "나", "저"} {
			if w == p || (len(p) > 3 && strings.HasPrefix(w, p)) {
				return true
			}
		}
	}
	for _, cue := range []string{"해줘", "해 줘", "하지 마", "하지마", "말고", "항상", "앞으로", "좋아", "싫어", "기억해", "주세요", "줘"} {
		if strings.Contains(text, cue) {
			return true
		}
	}
	return false
}

// l1Rules builds the L1 table. The named system patterns come first so that
// a dropped message shows the most specific reason; the length floors and
// acknowledgements catch what is left.
func l1Rules(strip func(string) string, ack func(string) bool) []Rule {
	both := []string{"en", "ko"}
	selfLimitHintsEN := []string{"access", "unable", "cannot", "can't", "can’t", "can not", "ability", "as an ai", "not able", "permission"}
	selfLimitHintsKO := []string{"수 없", "수없", "수가 없", "권한", "ai"}
	errorHints := []string{"eno", "etimedout", "econn", "eacces", "eperm", "eaddr", "epipe", "ehost", "rror", "xception", "atal", "panic", "raceback", "err!", "오류", "에러", " at ", "\tat "}
	en, ko := []string{"en"}, []string{"ko"}
	return []Rule{
		{Name: "heartbeat_ok", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: []string{"heartbeat_ok"},
			Pattern: regexp.MustCompile(`HEARTBEAT_OK`)},
		{Name: "heartbeat", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: []string{"heartbeat"},
			Pattern: regexp.MustCompile(`(?i)\bheartbeat\b(?:[ :_-]*(?:ok|ping|pong|check|tick|alive|received|ack|sent))?`)},
		{Name: "no_reply", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: []string{"no_reply"},
			Pattern: regexp.MustCompile(`NO_REPLY`)},
		{Name: "missing_placeholder", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: []string{"[missing]"},
			Pattern: regexp.MustCompile(`\[MISSING\]`)},
		{Name: "gateway_restart", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: []string{"gateway"},
			Pattern: regexp.MustCompile(`(?i)\bgateway ?restart(?:ed|ing)?\b`)},
		{Name: "compacted_placeholder", Layer: LayerL1, Langs: both, Scope: ScopeSpan, Hints: []string{"[compacted"},
			Pattern: regexp.MustCompile(`(?i)\[compacted:[^\]\n]*(?:\]|$)`)},
		{Name: "truncated_placeholder", Layer: LayerL1, Langs: both, Scope: ScopeSpan, Hints: []string{"truncated"},
			Pattern: regexp.MustCompile(`(?i)\[truncated:[^\]\n]*(?:\]|$)`)},
		{Name: "error_log_line", Layer: LayerL1, Langs: both, Scope: ScopeLine, Hints: errorHints,
			Pattern: errorPattern()},
		{Name: "self_limitation_en", Layer: LayerL1, Langs: en, Scope: ScopeMessage, Hints: selfLimitHintsEN,
			Pattern: selfLimitEN()},
		{Name: "self_limitation_ko", Layer: LayerL1, Langs: ko, Scope: ScopeMessage, Hints: selfLimitHintsKO,
			Pattern: selfLimitKO()},
		{Name: "acknowledgement", Layer: LayerL1, Langs: both, Scope: ScopeMessage, Func: ack},
		{Name: "too_short", Layer: LayerL1, Langs: both, Scope: ScopeMessage, Func: func(t string) bool {
			return float64(measure(t)) < rawFloor(t, ack)
		}},
		{Name: "too_short_stripped", Layer: LayerL1, Langs: both, Scope: ScopeMessage, Func: func(t string) bool {
			s := strip(t)
			n := float64(measure(s))
			if n < rawFloor(s, ack) {
				return true
			}
			return n < floor(StrippedFloorEN, s) && !hasAnchor(s) && !isSelfStatement(s, ack)
		}},
	}
}

// errorPattern finds the marks of an error or log line: errno codes, an
// "Error:" prefix, a panic or a traceback, in English and Korean. The rule
// only removes a line that isLogLine confirms.
func errorPattern() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s+at \S+.*(?:\(.*:\d+:\d+\)|:\d+:\d+)\s*$|\bE(?:NOENT|TIMEDOUT|CONNREFUSED|CONNRESET|ACCES|PERM|ADDRINUSE|PIPE|HOSTUNREACH|NOTFOUND)\b|(?i:\b(?:error|exception|fatal)\s*:|^\s*panic:|traceback \(most recent call last\)|npm err!|\[(?:error|err|fatal)\])|(?:오류|에러)\s*:`)
}

func selfLimitEN() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bI (?:do not|don'?t|don’t) have (?:direct |the )?(?:access|ability|permission|capability|the ability)\b` +
		`|\bI(?: cannot| can ?not| can'?t| can’t| am unable to|'m unable to|’m unable to| am not able to|'m not able to|’m not able to) (?:directly )?(?:summarize|summarise|process|access|read|open|browse|view|see the|retrieve|fetch|fulfill|fulfil|comply|execute|run|push|install|load|locate|verify|reach|set|send|check live|connect|make calls)\b` +
		`|\bI (?:don'?t|don’t|do not) have the ability\b` +
		`|\bas an AI(?: language model| assistant)?\b`)
}

func selfLimitKO() *regexp.Regexp {
	return regexp.MustCompile(`(?:접근|접속|액세스|열람)(?:을|를|할)?\s?수\s?(?:가\s?)?없|(?:파일|링크|URL|url|웹|인터넷|실시간|이미지|첨부|사이트|페이지|디렉터리|디렉토리|폴더|경로|시스템|도구|툴|데이터베이스|DB|계정|캘린더|메일|저장소)[^.!?\n]{0,24}?(?:접근|열람|확인|처리|요약|실행|접속|조회|열|읽|불러올|가져올|볼|찾을)[을를할]?\s?수\s?(?:가\s?)?없` +
		`|(?:접근|액세스)\s?권한이\s?없` +
		`|(?:저는|제가)\s?AI(?:라서|이기\s?때문에|로서|\s?언어\s?모델)`)
}

// isStatusLine reports whether line, which starts with a noise mark, is a
// status or log line: fewer than MaxStatusWords content words are left once
// the marks, paths, addresses, host names, numbers with units, quoted names
// and the words error and status messages are made of are set aside.
func isStatusLine(line string) bool {
	n := 0
	for w := range strings.FieldsFuncSeq(line, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == '(' || r == ')' || r == '[' || r == ']' || r == '—' || r == '–'
	}) {
		if strings.ContainsAny(w, "/\\:=@'\"`<>{}_.") || strings.ToUpper(w) == w && strings.ToLower(w) != w {
			continue // paths, hosts, key=value, quoted names, codes and marks
		}
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w == "" || logVocabulary(strings.ToLower(w)) || !isContentWord(w) || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			continue
		}
		n++
		if n >= MaxStatusWords {
			return false
		}
	}
	return true
}

// logVocabulary is the words error and log lines are made of.
func logVocabulary(w string) bool {
	switch w {
	case "error", "errors", "err", "errno", "exception", "fatal", "panic", "warn", "warning", "info", "debug",
		"such", "file", "directory", "connect", "connection", "open", "read", "write", "stat", "lstat", "scandir",
		"mkdir", "unlink", "spawn", "syscall", "failed", "fail", "failure", "timeout", "timed", "out", "request",
		"refused", "code", "uncaught", "unhandled", "promise", "rejection", "line", "column", "traceback", "most",
		"recent", "call", "last", "permission", "denied", "access", "address", "already", "use", "broken", "pipe",
		"host", "unreachable", "reset", "peer", "getaddrinfo", "node", "internal", "modules", "module", "not",
		"found", "cannot", "find", "command", "exit", "status", "exited", "process", "gateway", "socket", "tcp",
		"http", "https", "get", "post", "response", "while", "trying", "attempting", "retry", "retrying", "after",
		"ms", "sec", "seconds", "upload", "download", "notice", "restarted", "restart", "resumed", "session", "sessions", "established", "reload", "config", "upstream", "deploy", "ok", "all", "checks", "check", "nothing", "report", "goroutine", "running", "stack", "trace", "invalid", "argument", "operation",
		"파일을", "파일", "찾을", "없습니다", "없음", "연결", "실패", "시간", "초과", "거부", "권한", "오류", "에러", "발생":
		return true
	}
	return false
}

// functionWordEN lists English words that carry no content on their own.
func functionWordEN(w string) bool {
	switch w {
	case "the", "and", "but", "for", "you", "your", "yours", "are", "was", "were", "has", "have", "had", "not",
		"this", "that", "these", "those", "with", "from", "into", "onto", "about", "can", "could", "would",
		"should", "will", "shall", "may", "might", "must", "its", "it's", "his", "her", "hers", "him", "she",
		"they", "them", "their", "there", "here", "what", "which", "who", "whom", "whose", "when", "where",
		"why", "how", "any", "anything", "else", "all", "some", "just", "also", "too", "very", "really", "so",
		"then", "than", "now", "let", "know", "please", "sorry", "yes", "yeah", "okay", "sure", "thanks",
		"thank", "does", "did", "doing", "done", "been", "being", "get", "got", "able", "unable", "don't",
		"can't", "i'm", "i've", "i'll", "i'd", "you're", "you've", "we're", "it", "is", "if", "or", "of", "to",
		"in", "on", "at", "by", "an", "as", "be", "do", "me", "my", "we", "our", "us", "one", "more", "like",
		"want", "need", "help", "happy", "glad", "again", "still", "though", "maybe", "perhaps", "something",
		"try", "way", "ways", "instead", "other", "another", "share", "paste", "provide", "send", "copy":
		return true
	}
	return false
}

// functionWordKO lists Korean words (with their particles) that carry no
// content on their own.
func functionWordKO(w string) bool {
	switch w {
	case "그리고", "그런데", "하지만", "그래서", "그럼", "그냥", "혹시", "정말", "진짜", "너무", "아주", "조금", "다시",
		"이것", "그것", "저것", "이거", "그거", "여기", "거기", "저기", "있어요", "있습니다", "없어요", "없습니다",
		"해요", "합니다", "했어요", "했습니다", "하세요", "주세요", "드릴게요", "드리겠습니다", "죄송합니다", "죄송해요",
		"감사합니다", "알겠습니다", "네네", "혹시나", "어떻게", "무엇을", "뭐가", "언제든", "말씀해", "주시면":
		return true
	}
	return false
}
