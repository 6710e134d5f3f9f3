package tiers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
)

// corrections.md read back: lesson titles, counts and occurrences, and their import.

// parseCorrections reads corrections.md entries.
func parseCorrections(data []byte) ([]*engine.Correction, error) {
	var out []*engine.Correction
	var cur *engine.Correction
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	n := 0
	field := func(line, name string) (string, bool, error) {
		v, ok := strings.CutPrefix(line, "- "+name+": ")
		if !ok {
			return "", false, nil
		}
		s, err := unescapeLine(v)
		return s, true, err
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "## "); ok {
			c, err := parseLessonTitle(h)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			out = append(out, c)
			cur = c
			continue
		}
		if cur == nil {
			continue
		}
		for _, f := range []struct {
			name string
			set  func(string) error
		}{
			{"Context", func(s string) error { cur.Context = s; return nil }},
			{"Correction", func(s string) error {
				if len(s) >= 2 && strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
					s = s[1 : len(s)-1]
				}
				cur.Correction = s
				return nil
			}},
			{"Lesson", func(s string) error { cur.Lesson = s; return nil }},
			{"Count", func(s string) error {
				num, _, _ := strings.Cut(s, "/")
				v, err := strconv.Atoi(strings.TrimSpace(num))
				if err != nil || v < 0 {
					return fmt.Errorf("count %q is not n/%d", s, engine.PromotionThreshold)
				}
				cur.Count = v
				return nil
			}},
			{"Status", func(s string) error {
				if slices.Contains(engine.CorrectionStatuses(), s) {
					cur.Status = s
					return nil
				}
				return fmt.Errorf("status %q is not one of %s", s, strings.Join(engine.CorrectionStatuses(), ", "))
			}},
		} {
			v, ok, err := field(line, f.name)
			if err == nil && ok {
				err = f.set(v)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
	}
	return out, sc.Err()
}

// parseLessonTitle reads "YYYY-MM-DD — title <!-- mt {…} -->".
func parseLessonTitle(h string) (*engine.Correction, error) {
	date, rest, ok := strings.Cut(h, " — ")
	at, err := time.Parse("2006-01-02", date)
	if !ok || err != nil {
		return nil, fmt.Errorf("a lesson title reads `## YYYY-MM-DD — title`")
	}
	c := &engine.Correction{FirstSeen: at, LastSeen: at, Status: engine.CorrectionPending, Scope: engine.ScopeGlobal}
	if i := strings.LastIndex(rest, mdTrailerStart); i >= 0 && strings.HasSuffix(rest, " -->") {
		var t mdLesson
		if err := json.Unmarshal([]byte(rest[i+len(mdTrailerStart):len(rest)-len(" -->")]), &t); err != nil {
			return nil, fmt.Errorf("the lesson trailer is not valid JSON: %v", err)
		}
		c.LessonKey = t.LessonKey
		if t.Scope != "" {
			c.Scope = t.Scope
		}
		rest = rest[:i]
	}
	if c.LessonKey == "" {
		c.LessonKey = "md:" + strings.ReplaceAll(strings.ToLower(capture.SquashSpaces(rest)), " ", "-")
	}
	return c, nil
}

// importLesson writes a lesson of corrections.md, except its count: counts
// come from what was said. A count edited up to the promotion threshold
// becomes a promotion proposal (note "proposed"); another count edit is
// reported in note and not written.
func importLesson(ctx context.Context, e *engine.Engine, q engine.Queries, l *engine.Correction, now time.Time) (n int, note string, err error) {
	c, err := q.GetCorrection(ctx, l.LessonKey)
	switch {
	case err == nil:
		if l.Count != c.Count {
			old := c.Count
			if l.Count >= engine.PromotionThreshold && old < engine.PromotionThreshold && c.Status != engine.CorrectionPromoted && c.Status != engine.CorrectionRejected {
				if open, err := openPromotion(ctx, q, c.LessonKey); err != nil {
					return 0, "", err
				} else if !open {
					cand := *c
					cand.Count = l.Count
					p, err := PromotionProposal(ctx, e, &cand, nil)
					if err != nil {
						return 0, "", err
					}
					p.Proposer, p.CreatedAt = curate.ProposerImport, now
					p.Reason = fmt.Sprintf("Count of lesson %q edited %d→%d in corrections.md", c.LessonKey, old, l.Count)
					if err := q.InsertProposal(ctx, p); err != nil {
						return 0, "", err
					}
					note = "proposed"
				}
			} else {
				note = fmt.Sprintf("lesson %s: Count edited %d→%d; counts come from what was said and were not changed", c.LessonKey, old, l.Count)
			}
			l.Count = c.Count
		}
		if c.Context == l.Context && c.Correction == l.Correction && c.Lesson == l.Lesson && c.Status == l.Status && c.Scope == l.Scope {
			return 0, note, nil
		}
		c.Context, c.Correction, c.Lesson, c.Status, c.Scope = l.Context, l.Correction, l.Lesson, l.Status, l.Scope
	case engine.ErrorCode(err) == engine.ENOTFOUND:
		c = l
	default:
		return 0, "", err
	}
	if err := q.SaveCorrection(ctx, c); err != nil {
		return 0, "", fmt.Errorf("lesson %s: %w", l.LessonKey, err)
	}
	return 1, note, nil
}

// openPromotion reports whether a promotion of the lesson is waiting.
func openPromotion(ctx context.Context, q engine.Queries, lessonKey string) (bool, error) {
	ps, err := q.FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalPromote, Status: engine.ProposalPending})
	if err != nil {
		return false, err
	}
	for _, p := range ps {
		if ev, err := engine.ParsePromotion(p); err == nil && ev.LessonKey == lessonKey {
			return true, nil
		}
	}
	return false, nil
}
