package capture

import (
	"regexp"
	"strings"
)

// A health keyword that names a profession or a workplace in a job's
// predicate states someone's work, not a health condition (issue 29): "my
// sister-in-law Hana is a dentist in Daejeon", "he works as a doctor",
// "엄마는 병원에서 일해". The type is then read from the text without
// that keyword (another table's, else note); "I'm seeing a doctor
// tomorrow" and "병원 다녀왔어" keep health.
var occupationPredicate = regexp.MustCompile(`(?:\b(?:is|was|am|are|i'm|he's|she's|works as|working as|worked as|became|becomes|trained as) (?:a|an) (?:\w+ )?(doctor|dentist)\b)|(병원)에서 (?:일|근무)`)

// occupationKeyword returns the health keyword of norm that names an
// occupation (its profession noun or workplace), or "".
func occupationKeyword(norm, kw string) string {
	m := occupationPredicate.FindStringSubmatch(norm)
	if m == nil {
		return ""
	}
	for _, w := range m[1:] {
		if w != "" && strings.HasPrefix(w, strings.TrimSuffix(kw, "*")) {
			return w
		}
	}
	return ""
}
