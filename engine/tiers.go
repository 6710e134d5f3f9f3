package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Tier caps and lifecycle ages (seed 002). A cap is a number of lines of the
// tier's Markdown file; one memory is one line. Caps are enforced by
// proposals written by the heartbeat, never by silent truncation.
const (
	HotLineCap  = 100
	WarmLineCap = 200
	// DemoteAfter: a HOT or WARM memory unused this long is a demotion
	// candidate (HOT → WARM, WARM → COLD).
	DemoteAfter = 30 * 24 * time.Hour
	// ArchiveAfter: a memory unused this long is an archive candidate.
	ArchiveAfter = 90 * 24 * time.Hour
)

// Lifecycle audit actions and actors of the tiers.
const (
	ActorHeartbeat = "heartbeat"
	ActorCurator   = "curator"
	ActorImport    = "import"
)

// TierOf says in which tier a memory lives: archived memories are COLD
// whatever their tier field says, quarantined ones are in no tier ("").
func TierOf(m *Memory) Tier {
	switch {
	case m.Status == StatusQuarantined:
		return ""
	case m.Status == StatusArchived || m.Tier == TierCold:
		return TierCold
	case m.Tier == TierHot:
		return TierHot
	default:
		return TierWarm
	}
}

// LastUse is when a memory was last recalled, or created when never.
func LastUse(m *Memory) time.Time {
	if m.LastAccessedAt.After(m.CreatedAt) {
		return m.LastAccessedAt
	}
	return m.CreatedAt
}

// UnusedFor is how long a memory has gone without use at time at.
func UnusedFor(m *Memory, at time.Time) time.Duration {
	d := at.Sub(LastUse(m))
	if d < 0 {
		return 0
	}
	return d
}

// TierFile is the Markdown file (relative to the export directory) a memory
// is written to: HOT.md, projects/NAME.md, domains/NAME.md, WARM.md for
// global WARM memories, archive/YYYY-MM.md for COLD ones (by the month of
// last use — the month it went out of use). A superseded memory (a former
// fact) is archived whatever its tier, by the month it stopped holding
// (valid_to): the tier files an agent loads hold current facts only.
// Quarantined memories have no file ("").
func TierFile(m *Memory) string {
	if m.SupersededBy != 0 && TierOf(m) != "" {
		until := m.ValidTo
		if until.IsZero() {
			until = m.SupersededAt
		}
		return "archive/" + until.UTC().Format("2006-01") + ".md"
	}
	switch TierOf(m) {
	case TierHot:
		return "HOT.md"
	case TierCold:
		return "archive/" + LastUse(m).UTC().Format("2006-01") + ".md"
	case TierWarm:
		return warmFile(m.Scope)
	}
	return ""
}

func warmFile(scope string) string {
	if name, ok := strings.CutPrefix(scope, "project:"); ok && validScopeName(name) {
		return "projects/" + fileName(name) + ".md"
	}
	if name, ok := strings.CutPrefix(scope, "domain:"); ok && validScopeName(name) {
		return "domains/" + fileName(name) + ".md"
	}
	return "WARM.md"
}

// fileName is a scope name as the name of its tier file: the name itself,
// but for the runes a terminal or a file listing would act on (controls,
// bidi controls, line separators) and "%", which are written as %XX of
// their UTF-8 bytes — a file name made from user data is never raw.
// FileScope reads it back.
func fileName(name string) string {
	if !strings.ContainsFunc(name, encodedInFileName) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if !encodedInFileName(r) {
			b.WriteRune(r)
			continue
		}
		for _, c := range []byte(string(r)) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func encodedInFileName(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, r == '%', r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}

// unFileName reverses fileName.
func unFileName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// safeName accepts a project or domain name usable as a file name.
func validScopeName(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	return !strings.ContainsAny(s, "/\\\x00:*?\"<>|")
}

// fileScope is the scope a WARM file implies ("" for files that do not
// imply one).
func FileScope(file string) string {
	switch {
	case file == "HOT.md" || file == "WARM.md":
		return ScopeGlobal
	case strings.HasPrefix(file, "projects/"):
		return "project:" + unFileName(strings.TrimSuffix(strings.TrimPrefix(file, "projects/"), ".md"))
	case strings.HasPrefix(file, "domains/"):
		return "domain:" + unFileName(strings.TrimSuffix(strings.TrimPrefix(file, "domains/"), ".md"))
	}
	return ""
}

// fileCap is the line cap of a tier file (0: uncapped).
func FileCap(file string) int {
	switch {
	case file == "HOT.md":
		return HotLineCap
	case strings.HasPrefix(file, "archive/"):
		return 0
	}
	return WarmLineCap
}

// TierScope is one file of the tiers with its memories (id order) and its
// size in lines against its cap.
type TierScope struct {
	File     string  `json:"file"`
	Tier     Tier    `json:"tier"`
	Scope    string  `json:"scope,omitempty"`
	Lines    int     `json:"lines"`
	Cap      int     `json:"cap,omitempty"`
	Memories []int64 `json:"memories"`
}

// Over reports whether the scope is over its cap.
func (s TierScope) Over() bool { return s.Cap > 0 && s.Lines > s.Cap }

// tierHeaderLines is how many lines a tier file spends on its header; the
// rest is one line per memory.
const TierHeaderLines = 2

// TierScopes groups the cached memories by tier file, sorted by file name.
func (e *Engine) TierScopes() []TierScope {
	by := map[string]*TierScope{}
	e.EachMemory(func(m *Memory) bool {
		f := TierFile(m)
		if f == "" {
			return true
		}
		s, ok := by[f]
		if !ok {
			t := TierOf(m)
			if strings.HasPrefix(f, "archive/") {
				t = TierCold // a former fact archived whatever its tier
			}
			s = &TierScope{File: f, Tier: t, Scope: FileScope(f), Cap: FileCap(f), Lines: TierHeaderLines}
			by[f] = s
		}
		s.Memories = append(s.Memories, m.ID)
		s.Lines++
		return true
	})
	out := make([]TierScope, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
