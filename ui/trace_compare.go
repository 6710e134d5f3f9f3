package ui

import (
	"fmt"
	"strings"

	"memtrace/engine"
)

// compareMark is what happened to a memory between "now" and the later time.
type compareMark int

const (
	markSame      compareMark = iota // same rank in both
	markRose                         // a better rank later
	markFell                         // a worse rank later
	markNew                          // in the later prompt only
	markForgotten                    // gone later: the temporal stage forgot it
	markLeft                         // gone later for another reason
)

// comparedItem is one survivor of one side of the comparison.
type comparedItem struct {
	ID        int64
	Key, Text string
	Rank      int // 1-based position in its own prompt
	OtherRank int // position in the other prompt; 0 when absent
	Mark      compareMark
	// Reason is why a memory that left was dropped later, as "stage: reason".
	Reason string
	// Recognised: forgotten in free recall at its side's time, kept by the
	// temporal stage because the query cues it (engine.RecognitionCue).
	Recognised bool
}

// traceComparison is "now vs +N days" for one query, computed from two
// read-only traces of the same query.
type traceComparison struct {
	Now, Later []comparedItem
	// Forgotten is every memory that the temporal stage kept now and drops
	// as forgotten later, whether or not it reached the prompt.
	Forgotten []comparedItem
	// Recognised counts the later survivors forgotten in free recall but
	// recognised by the query.
	Recognised int
}

// compareTraces compares the survivors of a recall now with those of the
// same recall later: what rose, what fell, what is new, and what was
// forgotten or left for another reason.
func compareTraces(now, later *engine.Trace) traceComparison {
	var c traceComparison
	rankNow := survivorRanks(now)
	rankLater := survivorRanks(later)
	recNow, recLater := recognisedIDs(now), recognisedIDs(later)
	for i, s := range now.Survivors {
		it := comparedItem{ID: s.ID, Key: s.Key, Text: s.Text, Rank: i + 1, OtherRank: rankLater[s.ID], Recognised: recNow[s.ID]}
		switch {
		case it.OtherRank == 0:
			stage, reason := dropOf(later, s.ID)
			it.Mark, it.Reason = markLeft, stage+": "+reason
			if stage == "temporal" && isForgotten(reason) {
				it.Mark = markForgotten
			}
			if stage == "" {
				it.Reason = "not a candidate later"
			}
		default:
			it.Mark = rankMark(it.Rank, it.OtherRank)
		}
		c.Now = append(c.Now, it)
	}
	for i, s := range later.Survivors {
		it := comparedItem{ID: s.ID, Key: s.Key, Text: s.Text, Rank: i + 1, OtherRank: rankNow[s.ID], Recognised: recLater[s.ID]}
		if it.Recognised {
			c.Recognised++
		}
		if it.OtherRank == 0 {
			it.Mark = markNew
		} else {
			// Rose means a better (smaller) rank later than now.
			it.Mark = rankMark(it.OtherRank, it.Rank)
		}
		c.Later = append(c.Later, it)
	}
	keptNow := map[int64]bool{}
	if st := now.Stage("temporal"); st != nil {
		for _, it := range st.Items {
			if it.Dropped == "" {
				keptNow[it.ID] = true
			}
		}
	}
	if st := later.Stage("temporal"); st != nil {
		for _, it := range st.Items {
			if keptNow[it.ID] && isForgotten(it.Dropped) {
				c.Forgotten = append(c.Forgotten, comparedItem{
					ID: it.ID, Key: it.Key, Text: it.Text, Mark: markForgotten,
					OtherRank: rankNow[it.ID], Reason: it.Dropped,
				})
			}
		}
	}
	return c
}

// rankMark compares a rank now with the rank later (1 is best).
func rankMark(now, later int) compareMark {
	switch {
	case later < now:
		return markRose
	case later > now:
		return markFell
	}
	return markSame
}

func survivorRanks(t *engine.Trace) map[int64]int {
	r := make(map[int64]int, len(t.Survivors))
	for i, s := range t.Survivors {
		r[s.ID] = i + 1
	}
	return r
}

// dropOf finds the stage that dropped memory id in t and its reason; ""
// when no stage saw it.
func dropOf(t *engine.Trace, id int64) (stage, reason string) {
	for _, st := range t.Stages {
		for _, it := range st.Items {
			if it.ID == id && it.Dropped != "" {
				return st.Name, it.Dropped
			}
		}
	}
	return "", ""
}

// isForgotten reports a temporal drop for forgetting (the engine's reasons
// start with "forgotten"), as opposed to "not yet created".
func isForgotten(reason string) bool {
	return strings.HasPrefix(reason, "forgotten")
}

// recognisedIDs are the memories the temporal stage of t kept by
// recognition: its "recognised" note lists them as "id N: recognised (…)".
func recognisedIDs(t *engine.Trace) map[int64]bool {
	out := map[int64]bool{}
	st := t.Stage("temporal")
	if st == nil {
		return out
	}
	for _, part := range strings.Split(st.Notes["recognised"], "; ") {
		var id int64
		if _, err := fmt.Sscanf(part, "id %d: recognised", &id); err == nil {
			out[id] = true
		}
	}
	return out
}
