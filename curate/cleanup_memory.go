package curate

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"memtrace/engine"
	"memtrace/engine/filter"
)

// Message-level and memory-level rules. L1's length floors (too_short,
// too_short_stripped) judge a chat message: "Vegetarian" is no message
// worth keeping. An extracted memory — one another memory store wrote and
// `import memories` brought in (mem0's "Allergic to peanuts", a MEMORY.md
// bullet) — is already the fact; its length says nothing. For those, a
// length-floor match stands only under a memory-level rule:
//
//   - nothing to remember: the text is an acknowledgement ("ok", "Got it,
//     thanks!", "네 알겠습니다") or holds no word — laughter, emoji,
//     interjections ("ㅋㅋㅋ", "👍", "hm"); a word is a Hangul syllable or
//     three or more letters of another script;
//   - a question ("Can you recommend a good book?", "추천해 줄 수 있어요?"):
//     a stored question holds nothing the user told.
//
// Every other pattern (heartbeats, error lines, placeholders, self-
// limitations) applies to memories as to messages. Captured memories (no
// memory source) keep the message-level floors, so seed 000's table over a
// captured database is unchanged.

func isLengthFloor(name string) bool { return name == "too_short" || name == "too_short_stripped" }

func hasLengthFloor(ms []filter.Match) bool {
	for _, x := range ms {
		if isLengthFloor(x.Name) {
			return true
		}
	}
	return false
}

// memoryLevel returns the matches that stand for m: all of them for a
// captured memory; for an extracted one, the length floors only under a
// memory-level rule.
func memoryLevel(ctx context.Context, e *engine.Engine, m *engine.Memory, ms []filter.Match) ([]filter.Match, error) {
	if _, err := e.Store().GetMemorySource(ctx, m.ID); engine.ErrorCode(err) == engine.ENOTFOUND {
		return ms, nil // captured from a message
	} else if err != nil {
		return nil, fmt.Errorf("cleanup: source of memory %d: %w", m.ID, err)
	}
	ack := false
	for _, x := range ms {
		if x.Name == "acknowledgement" && x.Pure {
			ack = true
		}
	}
	nothing := ack || !hasWord(m.Content)
	question := isQuestion(m.Content)
	out := ms[:0:0]
	for _, x := range ms {
		switch {
		case x.Name == "too_short" && !nothing && !question:
			continue
		case x.Name == "too_short_stripped" && !nothing && !question:
			continue
		}
		out = append(out, x)
	}
	return out, nil
}

// hasWord reports whether text holds a word: a Hangul syllable, or three
// or more letters in a row of another script.
func hasWord(text string) bool {
	run := 0
	for _, r := range text {
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			return true
		case unicode.IsLetter(r) && !(r >= 0x3131 && r <= 0x318E): // not a lone jamo (ㅋ, ㅎ)
			run++
			if run >= 3 {
				return true
			}
		default:
			run = 0
		}
	}
	return false
}

// isQuestion reports whether text ends as a question.
func isQuestion(text string) bool {
	t := strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == '\'' || r == ')' })
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}
