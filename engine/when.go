package engine

import (
	"strconv"
	"strings"
	"time"
)

// TimeGrammar is the one grammar of a time, as `memtrace help` states it.
const TimeGrammar = `now | +30d | -2h | +1w | +1d12h | +90m (units w d h m s, from the database clock) | 2026-06-01 (midnight UTC) | 2026-06-01T09:00:00Z (RFC 3339)`

// maxOffset bounds an offset, so that a typo such as +99999999d is an
// error rather than an overflowed duration.
const maxOffset = 100 * 365 * 24 * time.Hour

// When is a parsed time: an instant (Abs), or an offset from a base the
// caller supplies (Relative; "now" is the offset 0).
type When struct {
	Relative bool
	Offset   time.Duration // when Relative
	Abs      time.Time     // when not Relative, in UTC
}

// From is the time w names when "now" is base.
func (w When) From(base time.Time) time.Time {
	if w.Relative {
		return base.Add(w.Offset).UTC()
	}
	return w.Abs
}

// ParseWhen reads a time in the grammar of TimeGrammar: "now" (or empty), a
// signed offset with units w, d, h, m, s ("+30d", "-2h", "+1w", "+1d12h"),
// a date ("2026-06-01", midnight UTC) or an RFC 3339 time. Every entry
// point that takes a time uses it, through ParseAt or directly: recall,
// compare and forecast --at, golden run --at, heartbeat --at, the golden
// YAML's defaults.at and probe at, the TUI's typed time override and MCP's
// memory_capture at.
func ParseWhen(s string) (When, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == "now":
		return When{Relative: true}, nil
	case s[0] == '+' || s[0] == '-':
		d, err := parseOffset(s[1:])
		if err != nil {
			return When{}, Errorf(EINVALID, "bad time offset %q: %s; write e.g. +30d, -2h, +1w or +1d12h", s, err.Error())
		}
		if s[0] == '-' {
			d = -d
		}
		return When{Relative: true, Offset: d}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return When{Abs: t.UTC()}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return When{Abs: t.UTC()}, nil
	}
	return When{}, Errorf(EINVALID, "bad time %q: use now, an offset such as +30d or -2h, a date (2026-06-01) or an RFC 3339 time (2026-06-01T09:00:00Z)", s)
}

// ParseAt reads a time (ParseWhen's grammar) with base as "now".
func ParseAt(s string, base time.Time) (time.Time, error) {
	w, err := ParseWhen(s)
	if err != nil {
		return time.Time{}, err
	}
	return w.From(base), nil
}

// parseOffset reads "30d", "1w2d", "2h30m" into a duration.
func parseOffset(s string) (time.Duration, error) {
	if s == "" {
		return 0, Errorf(EINVALID, "missing amount")
	}
	units := map[byte]time.Duration{
		'w': 7 * 24 * time.Hour, 'd': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute, 's': time.Second,
	}
	var total float64
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, Errorf(EINVALID, "expected a number followed by one of w, d, h, m, s")
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, Errorf(EINVALID, "bad number %q", s[:i])
		}
		unit, ok := units[s[i]]
		if !ok {
			return 0, Errorf(EINVALID, "unknown unit %q (use w, d, h, m or s)", s[i:i+1])
		}
		total += n * float64(unit)
		if total > float64(maxOffset) {
			return 0, Errorf(EINVALID, "more than 100 years")
		}
		s = s[i+1:]
	}
	return time.Duration(total), nil
}
