package capture

import (
	"regexp"
	"strings"
)

// LayerGuard is the capture trail's layer for text that addresses the agent
// with instructions ("ignore previous instructions …", "이전 지시는
// 무시하고 …"): such text is kept, as a low-importance note, and flagged
// for the curator, but it never becomes a rule or gains importance.
const LayerGuard = "guard"

// InjectionImportance is the importance instruction-shaped text is kept
// with: low enough that it is never recalled ahead of what the user said.
const InjectionImportance = 0.2

// injectionPattern is one named imperative-override shape.
type injectionPattern struct {
	name string
	re   *regexp.Regexp
	// needs are literals (lower case) of which every match of re contains
	// at least one: text holding none of them cannot match, so the regexp
	// (a backtracking match per message, the guard's whole cost) is
	// skipped. TestInjectionPrefilterNeverChangesAVerdict checks it.
	needs []string
}

// injectionPatterns are the override shapes in English and Korean. Each has
// a name that the trail shows. They look for text that speaks to the model
// about its instructions, or orders a destructive command; a user's own
// rule ("always run gofmt before commit") matches none of them.
func injectionPatterns() []injectionPattern {
	p := func(name, expr string, needs ...string) injectionPattern {
		return injectionPattern{name, regexp.MustCompile(expr), needs}
	}
	return []injectionPattern{
		p("ignore_instructions", `(?i)\b(ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,30}\b(previous|prior|above|earlier|all|any|your|the|system|existing)\b[^.!?\n]{0,20}\b(instructions?|rules?|prompts?|directions?|guidelines?|guardrails?|context)\b`,
			"ignore", "disregard", "forget", "override", "bypass"),
		p("new_instructions", `(?i)\b(new|updated|real|actual)\s+(system\s+)?(instructions?|prompt)\s*(:|are\b|is\b)`,
			"instruction", "prompt"),
		p("you_are_now", `(?i)\byou\s+are\s+now\s+(a|an|the|in|my|no\s+longer)\b|\b(developer|jailbreak|god|dan)\s+mode\b`,
			"you", "mode"),
		p("reveal_system_prompt", `(?i)\b(reveal|print|show|repeat|leak)\b[^.!?\n]{0,20}\b(system\s+prompt|hidden\s+instructions|developer\s+message)\b`,
			"system", "hidden", "developer"),
		p("destructive_command", `(?i)\brm\s+-[a-z]*r[a-z]*f?[a-z]*\s+(~|/|\$home|\*)|\bmkfs\b|\bdd\s+if=|:\(\)\s*\{\s*:\|:&\s*\};:|\bcurl\b[^|\n]{0,80}\|\s*(ba|z)?sh\b`,
			"rm", "mkfs", "dd", ":(", "curl"),
		p("ko_ignore_instructions", `(이전|앞의|앞선|위의|기존|모든|지금까지의?)\s*(의\s*)?(지시|지침|명령|규칙|프롬프트|설정)[^.!?\n]{0,12}(무시|잊어|잊고|따르지\s*마|버려)`,
			"지시", "지침", "명령", "규칙", "프롬프트", "설정"),
		p("ko_you_are_now", `(지금부터|이제부터|앞으로)\s*(너는|넌|당신은)\s*[^.!?\n]{0,20}(이다|야|입니다|역할)`,
			"지금부터", "이제부터", "앞으로"),
		p("ko_reveal_system_prompt", `(시스템\s*프롬프트|숨겨진\s*지시)[^.!?\n]{0,15}(보여|알려|출력|공개)`,
			"시스템", "숨겨진"),
	}
}

// detectInjection returns the name of the first override pattern text
// matches, or "".
func detectInjection(pats []injectionPattern, text string) string {
	low := prefilterFold(text)
	for _, p := range pats {
		if p.mayMatch(low) && p.re.MatchString(text) {
			return p.name
		}
	}
	return ""
}

// prefilterFold lower-cases text as the patterns' (?i) folds it: Unicode
// lower case, plus the long s (ſ), which case-folds to s but has no lower
// case of its own (the Kelvin sign lower-cases to k already).
func prefilterFold(text string) string {
	return strings.ReplaceAll(strings.ToLower(text), "ſ", "s")
}

func (p injectionPattern) mayMatch(low string) bool {
	if len(p.needs) == 0 {
		return true
	}
	for _, n := range p.needs {
		if strings.Contains(low, n) {
			return true
		}
	}
	return false
}
