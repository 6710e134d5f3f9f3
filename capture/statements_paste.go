package capture

import (
	"regexp"
	"strings"
)

// Machine output (issue 29): lines a program wrote, not a person — a log
// line, a stack trace's header, a shell prompt with its command, a column
// of a tabular listing. codeLine reads them as pasted material beside
// code and configuration, so a pasted log, trace or terminal session is
// never a statement of the user's (it has no sentence to keep).

// machineLead opens a line a program wrote: a timestamp (ISO 8601, a
// clock time, a syslog date), a log level, a diagnostic word with its
// colon (panic:, fatal:, error:, Caused by:), a goroutine or thread
// header, a process status, or a shell prompt ($, ❯, user@host:~$, PS C:\>).
var machineLead = regexp.MustCompile(`^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}\b|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b[\]:]?\s|[A-Z]/\S+\(\d+\):|(?i:panic|fatal error|fatal|error|warning|caused by|npm err!):|(?i:exception in thread|segmentation fault|exit status \d|exit code \d|goroutine \d+ \[)|\$ \S|❯ \S|PS [A-Z]:\\[^>]*> ?|[\w.-]+@[\w.-]+:\S*[$#] )`)

// machineToken is a token a person does not type in prose: key=value, a
// hex number or long hex id, an address with a port, a path of two or
// more segments, a dotted identifier with a call or a line number.
var machineToken = regexp.MustCompile(`^(?:[\w.-]+=\S+|0x[0-9a-fA-F]+|[0-9a-f]{8,}|\d+\.\d+\.\d+\.\d+(?::\d+)?|\S*/\S+/\S+|[\w.]+\.\w+:\d+|\S+\(\S*\)\S*)$`)

// machineLine reports a line of machine output (see above): a machine
// lead, or two or more machine tokens making a quarter of its tokens or
// more, or — inside a block — a row of three or more columns aligned by
// runs of spaces.
func machineLine(line string, block bool) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if machineLead.MatchString(t) {
		return true
	}
	fields := strings.Fields(t)
	n := 0
	for _, f := range fields {
		if machineToken.MatchString(strings.Trim(f, ",;[]\"'")) {
			n++
		}
	}
	if n >= 2 && n*4 >= len(fields) {
		return true
	}
	return block && len(columnGap.FindAllStringIndex(t, 3)) >= 2
}

// columnGap separates the columns of a tabular listing (t is trimmed).
var columnGap = regexp.MustCompile(` {2,}|\t+`)

// Requests phrased as a need or a wish (issue 29): "I need the numbers
// summarised in a table by 5", "I'd like a shorter version of that
// email", "need a bash one-liner that …", "이 메일 좀 다듬어 줬으면 좋겠어".
// They ask the assistant for one thing now and state nothing lasting
// about the user; "I need to renew my passport" (the speaker's own
// obligation) and "I want a dog" (no deliverable) stay statements.

// wantHeads open a need or a wish (after the lead fillers).
var wantHeads = [][]string{{"i", "need"}, {"i'd", "like"}, {"i", "would", "like"}, {"i", "want"}, {"i'd", "love"},
	{"i", "would", "love"}, {"i'm", "looking", "for"}, {"im", "looking", "for"}, {"i", "wanna"}, {"need"}, {"want"},
	{"looking", "for"}, {"would", "love"}, {"i", "need", "a", "hand", "with"}}

// deliverables are what an assistant hands over: a text or code artefact.
var deliverables = map[string]bool{"liner": true, "oneliner": true, "script": true, "snippet": true, "regex": true,
	"query": true, "function": true, "example": true, "examples": true, "summary": true, "draft": true, "version": true,
	"table": true, "outline": true, "template": true, "translation": true, "reply": true, "response": true,
	"explanation": true, "breakdown": true, "checklist": true, "command": true, "sample": true, "diagram": true,
	"rewrite": true, "tldr": true, "bullets": true, "paragraph": true, "title": true, "caption": true, "slogan": true,
	"haiku": true, "poem": true, "cheatsheet": true, "walkthrough": true, "overview": true, "comparison": true,
	"proofread": true, "review": true, "recap": true, "alias": true, "dockerfile": true, "makefile": true, "test": true, "tests": true}

// deliveredAs: a task verb's past participle after its object ("the numbers
// summarised", "it translated", "this fixed").
var deliveredAs = map[string]bool{"summarised": true, "summarized": true, "translated": true, "fixed": true,
	"rewritten": true, "reviewed": true, "checked": true, "done": true, "written": true, "formatted": true,
	"proofread": true, "sorted": true, "converted": true, "explained": true, "cleaned": true, "shortened": true,
	"drafted": true, "polished": true, "refactored": true, "debugged": true, "updated": true, "edited": true}

var deictic = map[string]bool{"this": true, "that": true, "these": true, "those": true, "it": true, "above": true}

// wantRequest reports a need or wish addressed to the assistant (see
// above): a want head followed, within six words, by a deliverable, by
// an object and a task verb's participle, or by a deictic object or a
// deadline ("by 5", "by tomorrow") — never by "to" (the speaker's own
// obligation or plan).
func wantRequest(words []string) bool {
	n := 0
	for _, h := range wantHeads {
		if len(words) > len(h) && slicesEqual(words[:len(h)], h) {
			n = len(h)
			break
		}
	}
	if n == 0 || words[n] == "to" || words[n] == "you" {
		return false // "i need you to" is headRequest's
	}
	rest := words[n:min(len(words), n+7)]
	for i, w := range rest {
		if deliverables[w] || i > 0 && deliveredAs[w] {
			return true
		}
		if i == 0 && deictic[w] || w == "of" && i+1 < len(rest) && deictic[rest[i+1]] {
			return true
		}
		if w == "by" && i > 0 && i+1 < len(rest) && deadlineWord(rest[i+1]) {
			return true
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// deadlineWord is a time a deliverable is due by: a clock number or a day.
func deadlineWord(w string) bool {
	if w != "" && strings.Trim(w, "0123456789:apm") == "" && w[0] >= '0' && w[0] <= '9' {
		return true
	}
	switch w {
	case "tomorrow", "tonight", "noon", "eod", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "lunch", "then":
		return true
	}
	return false
}

// koWishRequest: a giving auxiliary in a wish or an offer ("다듬어 줬으면
// 좋겠어", "봐 주시면 감사하겠습니다", "해 줄 수 있어").
var koWishRequest = regexp.MustCompile(`(?:줬으면|주셨으면|주면|주시면)\s*(?:좋겠|고맙|감사|해)|(?:줄|주실)\s*(?:수\s*있|래)`)
