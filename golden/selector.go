package golden

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"memtrace/engine"
)

// SelectorKind names what a selector compares.
type SelectorKind string

// The selector kinds of a golden set, written "kind:value".
const (
	SelectID   SelectorKind = "id"
	SelectKey  SelectorKind = "key"
	SelectText SelectorKind = "text"
	SelectType SelectorKind = "type"
	SelectTier SelectorKind = "tier"
	SelectKind SelectorKind = "kind"
)

var selectorKinds = []SelectorKind{SelectID, SelectKey, SelectText, SelectType, SelectTier, SelectKind}

// Selector picks memories out of a recall: `id:N`, `key:K`,
// `text:substring` (case-insensitive), `type:T`, `tier:T`, `kind:K`.
// `key:K` names a message: it picks the memory keyed K and the further
// statements capture split out of that message (K#2, K#3 …); `key:K#2`
// picks that one statement only. It is parsed once, when the set is loaded.
type Selector struct {
	Kind  SelectorKind
	Value string
	id    int64  // SelectID
	fold  string // SelectText: the case-folded substring
}

// String returns the selector as written in the set.
func (s Selector) String() string { return string(s.Kind) + ":" + s.Value }

// ParseSelector parses "kind:value". Errors name the accepted kinds.
func ParseSelector(raw string) (Selector, error) {
	kind, value, ok := strings.Cut(raw, ":")
	if !ok {
		return Selector{}, fmt.Errorf("selector %q has no kind: write kind:value with kind one of %s", raw, kindList())
	}
	s := Selector{Kind: SelectorKind(strings.TrimSpace(kind)), Value: strings.TrimSpace(value)}
	if s.Value == "" {
		return Selector{}, fmt.Errorf("selector %q has an empty value", raw)
	}
	switch s.Kind {
	case SelectID:
		id, err := strconv.ParseInt(s.Value, 10, 64)
		if err != nil || id <= 0 {
			return Selector{}, fmt.Errorf("selector %q: id must be a positive integer", raw)
		}
		s.id = id
	case SelectKey, SelectType:
	case SelectText:
		s.fold = foldCase(s.Value)
	case SelectTier:
		switch engine.Tier(s.Value) {
		case engine.TierHot, engine.TierWarm, engine.TierCold:
		default:
			return Selector{}, fmt.Errorf("selector %q: tier must be hot, warm or cold", raw)
		}
	case SelectKind:
		switch engine.Kind(s.Value) {
		case engine.KindFact, engine.KindEpisode:
		default:
			return Selector{}, fmt.Errorf("selector %q: kind must be fact or episode", raw)
		}
	default:
		return Selector{}, fmt.Errorf("selector %q: unknown kind %q (use one of %s)", raw, s.Kind, kindList())
	}
	return s, nil
}

func kindList() string {
	parts := make([]string, len(selectorKinds))
	for i, k := range selectorKinds {
		parts[i] = string(k) + ":"
	}
	return strings.Join(parts, ", ")
}

// item is the part of a memory a selector looks at; survivors and stage
// items both reduce to it.
type item struct {
	ID   int64
	Key  string
	Text string
	Type string
	Kind engine.Kind
	Tier engine.Tier
}

func survivorItem(s engine.Survivor) item {
	return item{ID: s.ID, Key: s.Key, Text: s.Text, Type: s.Type, Kind: s.Kind, Tier: s.Tier}
}

func traceItem(t engine.TraceItem) item {
	return item{ID: t.ID, Key: t.Key, Text: t.Text, Type: t.Type, Kind: t.Kind, Tier: t.Tier}
}

func (s Selector) matches(it item) bool {
	switch s.Kind {
	case SelectID:
		return it.ID == s.id
	case SelectKey:
		return keyOfMessage(it.Key, s.Value)
	case SelectText:
		return strings.Contains(foldCase(it.Text), s.fold)
	case SelectType:
		return strings.EqualFold(it.Type, s.Value)
	case SelectTier:
		return string(it.Tier) == s.Value
	case SelectKind:
		return string(it.Kind) == s.Value
	}
	return false
}

// keyOfMessage reports whether key is msg itself or one of the statements
// capture split out of message msg: msg#N with N a positive number.
func keyOfMessage(key, msg string) bool {
	if key == msg {
		return true
	}
	rest, ok := strings.CutPrefix(key, msg+"#")
	if !ok || rest == "" || rest[0] == '0' {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MatchesSurvivor reports whether the selector picks the survivor.
func (s Selector) MatchesSurvivor(v engine.Survivor) bool { return s.matches(survivorItem(v)) }

// MatchesItem reports whether the selector picks the stage item.
func (s Selector) MatchesItem(t engine.TraceItem) bool { return s.matches(traceItem(t)) }

// foldCase maps every rune to the smallest rune of its Unicode case-folding
// orbit, so "K", "k" and the Kelvin sign compare equal, as do Σ, σ and ς.
// Runes without case (Hangul, digits) are unchanged.
func foldCase(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		b.WriteRune(min)
	}
	return b.String()
}
