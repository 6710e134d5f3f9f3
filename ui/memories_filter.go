package ui

import (
	"fmt"
	"strings"

	"memtrace/engine"
)

// The Memories filter: field:value words and free text, with unknown fields and values reported.

// memoryQuery is the filter bar parsed: "status:quarantined type:health
// kind:fact tier:hot key:m0005 녹차" — prefixed words select fields, the
// rest is a case-insensitive substring of the content. status:superseded
// keeps the former facts, those a newer memory superseded.
func memoryQuery(s string) engine.MemoryFilter {
	f, _ := memoryQueryCheck(s)
	return f
}

// memoryFilterFields are the fields the filter bar knows.
const memoryFilterFields = "status, type, kind, tier, key"

// memoryQueryCheck parses the filter bar and says what it could not use:
// a field it does not know ("stat:") or a value no memory can have
// ("status:quarantine"). Such a word selects nothing (it is left out of
// the filter), so the problem is reported instead of matching nothing.
func memoryQueryCheck(s string) (engine.MemoryFilter, string) {
	var f engine.MemoryFilter
	var text, problems []string
	oneOf := func(field, value string, allowed ...string) bool {
		for _, a := range allowed {
			if value == a {
				return true
			}
		}
		problems = append(problems, fmt.Sprintf("unknown %s %s: use %s", field, value, strings.Join(allowed, ", ")))
		return false
	}
	for _, w := range strings.Fields(s) {
		name, value, ok := strings.Cut(w, ":")
		if !ok || !isFieldName(name) {
			text = append(text, w)
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "status":
			v := strings.ToLower(value)
			if v == supersededStatus {
				// Not a stored status: a memory linked to a newer one,
				// whatever its status.
				f.Superseded = true
				continue
			}
			if oneOf("status", v, string(engine.StatusActive), string(engine.StatusQuarantined), string(engine.StatusArchived), supersededStatus) {
				st := engine.Status(v)
				f.Status = &st
			}
		case "type":
			if value == "" {
				problems = append(problems, "type: needs a value, e.g. type:health")
				continue
			}
			t := value
			f.Type = &t
		case "kind":
			v := strings.ToLower(value)
			if oneOf("kind", v, string(engine.KindFact), string(engine.KindEpisode)) {
				k := engine.Kind(v)
				f.Kind = &k
			}
		case "tier":
			v := strings.ToLower(value)
			if oneOf("tier", v, string(engine.TierHot), string(engine.TierWarm), string(engine.TierCold)) {
				t := engine.Tier(v)
				f.Tier = &t
			}
		case "key":
			if value == "" {
				problems = append(problems, "key: needs a value, e.g. key:m0005")
				continue
			}
			f.Key = value
		default:
			problems = append(problems, fmt.Sprintf("unknown field %s: use %s", name, memoryFilterFields))
		}
	}
	f.Text = strings.Join(text, " ")
	return f, strings.Join(problems, " · ")
}

// isFieldName reports whether s (the part before a colon) reads as a
// field name: ASCII letters and underscores only, so that "10:30" or a
// Korean word with a colon stay text.
func isFieldName(s string) bool {
	if s == "" || len(s) > 16 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			return false
		}
	}
	return true
}
