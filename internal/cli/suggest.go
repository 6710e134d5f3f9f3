package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// suggest is the candidate closest to what the user typed, or "" when
// none is close: an edit distance (insertions, deletions, substitutions
// and swaps of neighbours) of at most a third of the word, at least one —
// or the only candidate the word is a prefix of. Ties go to the first
// candidate, in the order given.
func suggest(typed string, candidates []string) string {
	typed = strings.ToLower(typed)
	best, bestD := "", max(1, len([]rune(typed))/3)+1
	prefixed := ""
	nPrefixed := 0
	for _, c := range candidates {
		if typed != "" && strings.HasPrefix(c, typed) {
			prefixed, nPrefixed = c, nPrefixed+1
		}
		if d := editDistance(typed, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" && nPrefixed == 1 {
		return prefixed
	}
	return best
}

// didYouMean is "; did you mean X?" for suggest's answer, or "".
func didYouMean(typed string, candidates []string) string {
	if s := suggest(typed, candidates); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b,
// over runes (Korean input counts one per syllable).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// commandNames are the names of cmds, in order.
func commandNames(cmds []command) []string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return names
}

// flagHint is the did-you-mean for the flag package's "flag provided but
// not defined: -NAME" error, over fs's flags; "" for any other error.
func flagHint(fs *flag.FlagSet, err error) string {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s := suggest(strings.TrimPrefix(msg, undefined), names); s != "" {
		return "; did you mean --" + s + "?"
	}
	return ""
}

// The flag package's parse errors, which name a flag -NAME.
var (
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]+): (.*)$`)
)

// flagError is a flag parse error of fs in the --NAME form the usage
// lines and the README use, saying what the flag wants: `--limit "x":
// want a whole number` rather than `invalid value "x" for flag -limit:
// parse error`. An unknown flag gets its did-you-mean.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := flagUndefined.FindStringSubmatch(msg); m != nil {
		if m[1][0] >= '0' && m[1][0] <= '9' {
			// No flag starts with a digit: a negative offset (-2h) given
			// as an argument, which only -- keeps from the flags.
			return fmt.Sprintf("-%s is read as a flag; an argument that starts with - goes after --: `memtrace %s -- -%s`", m[1], fs.Name(), m[1])
		}
		return "unknown flag --" + m[1] + flagHint(fs, err)
	}
	if m := flagNoValue.FindStringSubmatch(msg); m != nil {
		f := fs.Lookup(m[1])
		if f == nil {
			return msg
		}
		return "--" + m[1] + " needs a value: " + flagTitle(f)
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		f := fs.Lookup(m[2])
		if f == nil {
			return msg
		}
		reason := m[3]
		if reason == "parse error" || reason == "value out of range" {
			reason = "want " + flagWants(f, reason == "value out of range")
		}
		return "--" + m[2] + " " + m[1] + ": " + reason
	}
	return msg
}

// flagWants says what kind of value f takes.
func flagWants(f *flag.Flag, outOfRange bool) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "another value"
	}
	var want string
	switch g.Get().(type) {
	case bool:
		return "true or false (or leave the value out: --" + f.Name + ")"
	case int, int64:
		want = "a whole number"
	case uint, uint64:
		want = "a whole number, 0 or more"
	case float64:
		want = "a number"
	case time.Duration:
		want = "a duration such as 30s, 5m or 2h"
	default:
		return "another value"
	}
	if outOfRange {
		return want + " in range"
	}
	return want
}
