package filter

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// l2Rules builds the L2 table: the seed's NOISE_PATTERNS, English and
// Korean, compiled here and nowhere else, applied to ParseContent's output.
// It shares no pattern with L1 so that it works when L1 is bypassed.
func l2Rules() []Rule {
	both := []string{"en", "ko"}
	return []Rule{
		{Name: "noise_empty_content", Layer: LayerL2, Langs: both, Scope: ScopeMessage, Func: func(t string) bool {
			return strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0
		}},
		{Name: "noise_ack", Layer: LayerL2, Langs: both, Scope: ScopeSpan, MaxLen: 160,
			Pattern: regexp.MustCompile(`(?i)^[\s\p{P}\p{S}]*(?:(?:ok(?:ay)?|k+|thanks?(?: a lot| so much)?|thank you(?: so much)?|thx|ty|got it|sure|noted|understood|will do|sounds good|no problem|np|cool|great|perfect|nice|yes|yep|yeah|yup|alright|lgtm|right|fine|hmm+|h+m+|wait|lol|nah|meh|ㅋ{2,}|ㅎ{2,}|음+|흠+|잠깐만?|네+|넵|넹|예|응|웅|ㅇㅇ|ㅇㅋ|오케이|알겠습니다|알겠어요?|알았어요?|감사합니다|감사해요|고마워요?|고맙습니다|좋아요?|좋습니다|확인(?:했습니다|했어요)?|그래요?|맞아요?|수고하셨습니다)[\s\p{P}\p{S}ㅋㅎㅠㅜ]*)+$`)},
		{Name: "noise_self_limitation", Layer: LayerL2, Langs: both, Scope: ScopeMessage,
			Hints: []string{"have access", "the ability", "cannot", "unable", "수 없", "수없", "수가 없", "권한"},
			Pattern: regexp.MustCompile(`(?i)I don.t have (?:access|the ability) to|I cannot (?:summarize|process|access|read|fulfill)|I.m unable to (?:access|read|open|process|summarize|fulfill|browse|view|retrieve|fetch|run)|I cannot browse` +
				`|(?:파일|링크|웹|인터넷|실시간|이미지|첨부|사이트|페이지|폴더|경로|시스템|계정|캘린더)[^.!?\n]{0,24}?(?:접근|열람|확인|읽|열|조회)[을를할]?\s?수\s?(?:가\s?)?없|(?:접근|접속)할\s?수\s?(?:가\s?)?없|접근\s?권한이\s?없`)},
		{Name: "noise_no_reply", Layer: LayerL2, Langs: both, Scope: ScopeLine, Hints: []string{"no_reply"},
			Pattern: regexp.MustCompile(`NO_REPLY`)},
		{Name: "noise_heartbeat", Layer: LayerL2, Langs: both, Scope: ScopeLine, Hints: []string{"heartbeat"},
			Pattern: regexp.MustCompile(`(?i)HEARTBEAT(?:_OK|[ :_-]*(?:ok|ping|pong|check|tick|alive|ack))?`)},
		{Name: "noise_missing", Layer: LayerL2, Langs: both, Scope: ScopeLine, Hints: []string{"[missing]"},
			Pattern: regexp.MustCompile(`\[MISSING\]`)},
		{Name: "noise_gateway_restart", Layer: LayerL2, Langs: both, Scope: ScopeLine, Hints: []string{"gateway"},
			Pattern: regexp.MustCompile(`(?i)Gateway ?Restart(?:ed|ing)?`)},
		{Name: "noise_error_log", Layer: LayerL2, Langs: both, Scope: ScopeLine,
			Hints:   []string{"enoent", "etimedout", "econn", "eacces", " at ", "\tat "},
			Pattern: regexp.MustCompile(`(?m)^\s+at \S+.*:\d+:\d+\)?\s*$|(?i:error|err!?|오류|에러)[:\s].*(?:ENOENT|ETIMEDOUT|ECONNREFUSED|ECONNRESET|EACCES)|(?:ENOENT|ETIMEDOUT|ECONNREFUSED|ECONNRESET|EACCES)\b`)},
		{Name: "noise_compacted", Layer: LayerL2, Langs: both, Scope: ScopeSpan, Hints: []string{"compacted"},
			Pattern: regexp.MustCompile(`(?i)\[compacted:[^\]\n]*(?:\]|$)`)},
		{Name: "noise_truncated", Layer: LayerL2, Langs: both, Scope: ScopeSpan, Hints: []string{"truncated"},
			Pattern: regexp.MustCompile(`(?i)\[truncated:[^\]\n]*(?:\]|$)`)},
	}
}

// fillerRules are sentences an assistant wraps around noise ("Sorry…",
// "Could you paste it here?", "원하시면 말씀해 주세요"). They are removed
// before the rest of a message is measured, never used to drop on their own.
func fillerRules() []Rule {
	return []Rule{
		{Name: "filler_en", Hints: []string{"sorry", "apolog", "unfortunately", " you ", "please", "let me know", "anything else", "if you", "help", "happy to"}, Pattern: regexp.MustCompile(`(?i)^\s*(?:sorry|apologies|unfortunately|i apologi[sz]e)\b` +
			`|\b(?:could|can|would) you (?:please )?(?:paste|share|upload|provide|send|copy|give|tell|check|try|confirm)\b` +
			`|\bplease (?:paste|share|upload|provide|send|copy|check)\b|\blet me know\b|\bis there anything else\b` +
			`|\bif you (?:want|like|prefer|can|could|'d like)\b|\bhappy to help\b|\bI(?:'d| would) be happy to\b|\byou (?:can|could|might) (?:try|check|run)\b`)},
		{Name: "filler_ko", Hints: []string{"죄송", "주", "도와", "원하시면", "필요하시면"}, Pattern: regexp.MustCompile(`죄송|(?:붙여\s?넣어|붙여|공유해|알려|보내|업로드해|확인해)\s?주(?:시겠어요|세요|시면|실\s?수)|도와\s?드릴|원하시면|필요하시면|말씀해\s?주`)},
	}
}

// parser holds the compiled patterns of ParseContent and StripMemoryTags.
type parser struct {
	toolBlocks *regexp.Regexp // tool calls: removed with their arguments
	wrappers   *regexp.Regexp // tool result wrappers: tags removed, text kept
	rolePrefix *regexp.Regexp
	memoryTags *regexp.Regexp
}

func newParser() *parser {
	return &parser{
		toolBlocks: regexp.MustCompile(`(?s)<(?:tool_use|tool_call|function_calls|antml:function_calls|invoke)\b[^>]*>.*?</(?:tool_use|tool_call|function_calls|antml:function_calls|invoke)>`),
		wrappers:   regexp.MustCompile(`</?(?:tool_result|tool_output|function_results|result|output|stdout|stderr|assistant|content)\b[^>]*>`),
		rolePrefix: regexp.MustCompile(`(?m)^\s*(?:assistant|Assistant|ASSISTANT|AI|bot|Bot)\s*:\s*`),
		memoryTags: regexp.MustCompile(`(?is)<(memory|memories|relevant[-_]memories|recalled[-_]memories|memory[-_]context)\b[^>]*>.*?</(?:memory|memories|relevant[-_]memories|recalled[-_]memories|memory[-_]context)>` +
			`|<(?:memory|memories)\b[^>]*/?>|\[\[mem(?:ory)?(?::[^\]]*)?\]\]|\[(?:memory|mem|recalled)\s*:[^\]]*\]|\[[A-Z_]{3,}:[a-z_]+\]`),
	}
}

// ParseContent returns the assistant content of text the way L2 judges it:
// a JSON envelope ({"content": …}, {"text": …}, content blocks) is reduced
// to its text fields, tool calls are removed with their arguments, tool
// result wrappers lose their tags but keep their text, and a leading
// "assistant:" role prefix is dropped.
func (f *Filter) ParseContent(text string) string {
	t := strings.TrimSpace(text)
	if len(t) > 1 && (t[0] == '{' || t[0] == '[') {
		var v any
		if json.Unmarshal([]byte(t), &v) == nil {
			var b strings.Builder
			collectText(v, &b)
			t = b.String()
		}
	}
	if strings.IndexByte(t, '<') >= 0 {
		t = f.parse.toolBlocks.ReplaceAllString(t, " ")
		t = f.parse.wrappers.ReplaceAllString(t, " ")
	}
	if strings.IndexByte(t, ':') >= 0 {
		t = f.parse.rolePrefix.ReplaceAllString(t, "")
	}
	return t
}

// collectText appends the text fields of a decoded JSON envelope.
func collectText(v any, b *strings.Builder) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"content", "text", "message", "output", "result", "response", "answer", "error"} {
			if c, ok := x[k]; ok {
				collectText(c, b)
			}
		}
	case []any:
		for _, c := range x {
			collectText(c, b)
		}
	case string:
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(x)
	}
}

// StripMemoryTags removes recalled-memory blocks an agent framework injects
// into a message (<memory>…</memory>, <relevant-memories>…, [[mem]],
// [memory: …], extraction label prefixes such as [MILESTONE:love]): they are
// old memories, not something new to remember, and a label prefix would
// leak an answer to the judge.
func (f *Filter) StripMemoryTags(text string) string {
	if !strings.ContainsAny(text, "<[") {
		return text
	}
	return f.parse.memoryTags.ReplaceAllStringFunc(text, func(m string) string {
		if strings.HasPrefix(m, "[secret:") {
			return m // a redacted value's placeholder (engine/secret), not a label prefix
		}
		return " "
	})
}

// ackPhrases are the English and Korean acknowledgements; a message made of
// nothing else (and punctuation, emoji, ㅋㅋ) is dropped by L1.
func ackPhrases() []string {
	return []string{
		"thank you so much", "thanks a lot", "thanks so much", "much appreciated", "sounds good", "no problem",
		"thank you", "got it", "will do", "all right", "makes sense", "ok", "okay", "okey", "kk", "k", "thanks",
		"thx", "ty", "sure", "cool", "great", "nice", "perfect", "yes", "yep", "yeah", "yup", "np", "noted",
		"understood", "alright", "right", "done", "lgtm", "good", "fine", "awesome", "thank",
		"알겠습니다", "알겠어요", "알겠어", "알았어요", "알았어", "감사합니다", "감사해요", "고맙습니다", "고마워요",
		"고마워", "좋아요", "좋습니다", "좋아", "확인했습니다", "확인했어요", "확인", "그래요", "그래", "맞아요", "맞아",
		"넵넵", "네네", "넵", "넹", "네", "예", "응", "웅", "ㅇㅇ", "ㅇㅋ", "오케이", "ㄱㅅ", "ㄳ", "수고하셨습니다",
		"수고했어", "수고하세요",
	}
}

// newAck returns the acknowledgement predicate over phrases.
func newAck(phrases []string) func(string) bool {
	return func(text string) bool {
		if len(text) > 120 { // six words at most
			return false
		}
		s := strings.ToLower(text)
		s = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return ' '
		}, s)
		words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
		words = slices.DeleteFunc(words, func(w string) bool {
			return strings.Trim(w, "ㅋㅎㅠㅜ") == "" && len(w) > 3 // laughter and tears: ㅋㅋ, ㅠㅠ
		})
		if len(words) == 0 || len(words) > 6 {
			return false
		}
		rest := strings.Join(words, " ")
		for rest != "" {
			matched := false
			for _, p := range phrases {
				if rest == p || strings.HasPrefix(rest, p+" ") {
					rest = strings.TrimPrefix(rest[len(p):], " ")
					matched = true
					break
				}
			}
			if !matched {
				return false
			}
		}
		return true
	}
}
