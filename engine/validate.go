package engine

import (
	"math"
	"strings"
)

// ValidateMemory checks the fields of a memory a caller gave before any of
// it reaches the store, naming the field that is wrong: importance must be
// a number from 0 to 1 (NaN and ±Inf are not), kind and tier known values
// (or empty for the default), the scope global, project:NAME or
// domain:NAME. The status is not checked: recall must cope with whatever a
// hand import left there, and treats an unknown one as not active.
func ValidateMemory(m *Memory) error {
	switch {
	case strings.TrimSpace(m.Content) == "":
		return Errorf(EINVALID, "content: a memory needs text")
	case math.IsNaN(m.Importance) || m.Importance < 0 || m.Importance > 1:
		return Errorf(EINVALID, "importance %v: want a number from 0 to 1", m.Importance)
	case m.Kind != "" && m.Kind != KindFact && m.Kind != KindEpisode:
		return Errorf(EINVALID, "kind %q: want fact or episode", m.Kind)
	case m.Tier != "" && m.Tier != TierHot && m.Tier != TierWarm && m.Tier != TierCold:
		return Errorf(EINVALID, "tier %q: want hot, warm or cold", m.Tier)
	case m.Scope != "" && !ValidScope(m.Scope):
		return Errorf(EINVALID, "scope %q: want global, project:NAME or domain:NAME", m.Scope)
	case math.IsNaN(m.Boost) || math.IsInf(m.Boost, 0) || m.Boost < 0:
		return Errorf(EINVALID, "boost %v: want a number of 0 or more", m.Boost)
	}
	return nil
}

// ValidateProject checks a project name a message or a caller gave, before
// any of it is written: a project becomes a scope (project:NAME) and the
// name of a file (projects/NAME.md), so it is 1 to 100 characters, not "."
// or "..", without / \ : * ? " < > | or control characters. "" is no
// project.
func ValidateProject(name string) error {
	if name == "" {
		return nil
	}
	bad := !validScopeName(name)
	for _, r := range name {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			bad = true
		}
	}
	if !bad {
		return nil
	}
	shown := name
	if len([]rune(shown)) > 40 {
		shown = string([]rune(shown)[:40]) + "…"
	}
	return Errorf(EINVALID, "project %q (%d characters) is not a project name: use 1 to 100 characters without / \\ : * ? \" < > |, control characters, or a name of only dots", shown, len([]rune(name)))
}
