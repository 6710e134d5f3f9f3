package capture

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// ReflectionPrefix starts the lesson key of a self-reflection record. Such
// records live among the corrections (no schema of their own) and take the
// same path to promotion: the same lesson reflected PromotionThreshold times
// becomes a promote proposal at the next heartbeat.
const ReflectionPrefix = "reflection:"

// Reflection is an agent's note after a task (seed 002): what it intended,
// what actually happened, and the lesson it draws.
type Reflection struct {
	Intended string    `json:"intended"`
	Actual   string    `json:"actual"`
	Lesson   string    `json:"lesson,omitempty"` // "" : the lesson is the actual outcome
	Session  string    `json:"session,omitempty"`
	Project  string    `json:"project,omitempty"`
	At       time.Time `json:"at,omitzero"`
}

// Reflect files a self-reflection record and returns the lesson it counted
// toward. The lesson key is the reflection prefix plus the lesson's
// normalised terms in sorted order, so rewordings with the same words (in
// any order, with Korean particles or English inflections) count as one.
func Reflect(ctx context.Context, e *engine.Engine, r Reflection) (*engine.Correction, error) {
	r.Intended, r.Actual, r.Lesson = SquashSpaces(r.Intended), SquashSpaces(r.Actual), SquashSpaces(r.Lesson)
	if r.Intended == "" || r.Actual == "" {
		return nil, engine.Errorf(engine.EINVALID, "a reflection needs both --intended and --actual")
	}
	lesson := r.Lesson
	if lesson == "" {
		lesson = r.Actual
	}
	key := ReflectionKey(lesson)
	if key == ReflectionPrefix {
		return nil, engine.Errorf(engine.EINVALID, "the lesson %q has no words to key it by; say what to do differently", lesson)
	}
	at := r.At
	if at.IsZero() {
		at = e.Now()
	}
	at = at.UTC()
	occ := engine.Occurrence{Session: r.Session, Text: "intended: " + r.Intended + " | actual: " + r.Actual, At: at}
	var out *engine.Correction
	err := e.Update(ctx, func(q engine.Queries) error {
		c, err := q.GetCorrection(ctx, key)
		switch {
		case err == nil:
		case engine.ErrorCode(err) == engine.ENOTFOUND:
			c = &engine.Correction{LessonKey: key, Lesson: lesson, Scope: engine.ProjectScope(r.Project),
				FirstSeen: at, Status: engine.CorrectionPending}
		default:
			return err
		}
		c.Context = "self-reflection: intended " + r.Intended
		c.Correction = r.Actual
		c.Count++
		c.Occurrences = append(c.Occurrences, occ)
		if at.After(c.LastSeen) {
			c.LastSeen = at
		}
		if c.Status == engine.CorrectionPending && c.Count >= engine.PromotionThreshold {
			c.Status = engine.CorrectionCandidate
		}
		out = c
		return q.SaveCorrection(ctx, c)
	})
	if err != nil {
		return nil, fmt.Errorf("reflect: %w", err)
	}
	return out, nil
}

// ReflectionKey is the lesson key of a reflection's lesson.
func ReflectionKey(lesson string) string {
	seen := map[string]bool{}
	var terms []string
	for _, t := range textnorm.StableTokens(lesson) {
		if textnorm.IsStopWord(t) || seen[t] {
			continue
		}
		seen[t] = true
		terms = append(terms, t)
	}
	sort.Strings(terms)
	if len(terms) > 12 {
		terms = terms[:12]
	}
	return ReflectionPrefix + strings.Join(terms, "-")
}

func SquashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
