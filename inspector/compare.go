package inspector

import (
	"context"
	"fmt"
	"io"
	"sort"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
)

// Change is one memory in a comparison of a query's recall at A and at B.
// Ranks are 1-based positions among the survivors (0: not a survivor);
// final scores are final_score from the temporal stage (0 when the memory
// did not reach it).
type Change struct {
	ID         int64       `json:"id"`
	Key        string      `json:"key"`
	Text       string      `json:"text"`
	Kind       engine.Kind `json:"kind"`
	Type       string      `json:"type"`
	Importance float64     `json:"importance"`
	RankA      int         `json:"rank_a"`
	RankB      int         `json:"rank_b"`
	// RankDelta is rank_a − rank_b: positive when the memory rose.
	RankDelta   int     `json:"rank_delta"`
	FinalScoreA float64 `json:"final_score_a"`
	FinalScoreB float64 `json:"final_score_b"`
	// FinalScoreDelta is final_score_b − final_score_a.
	FinalScoreDelta float64   `json:"final_score_delta"`
	ForgetAt        time.Time `json:"forget_at"`
	// Reason is why the memory is absent from the other side's survivors,
	// for people, as "stage: reason": for forgotten and left, the drop at B;
	// for new, at A ("not retrieved at B/A" when no stage saw it there).
	Reason string `json:"reason,omitempty"`
	// Stage and DropKind are Reason for programs: the stage that dropped
	// the memory on the other side and its engine.DropKind, or "" and
	// DropNotRetrieved when no stage saw it there.
	Stage    string          `json:"stage,omitempty"`
	DropKind engine.DropKind `json:"drop_kind,omitempty"`
	// RecognisedA and RecognisedB: the temporal stage at that time kept the
	// memory although it is forgotten in free recall, because the query
	// cues it (engine.TraceItem.Recognised).
	RecognisedA bool `json:"recognised_a,omitempty"`
	RecognisedB bool `json:"recognised_b,omitempty"`
	// SupersededBy and ValidTo: for a forgotten memory that B's recall
	// dropped because a newer memory superseded it (drop_kind
	// superseded), the newer memory and when this fact stopped holding
	// (then forget_at is valid_to).
	SupersededBy int64     `json:"superseded_by,omitempty"`
	ValidTo      time.Time `json:"valid_to,omitzero"`
}

// DropNotRetrieved is a Change's DropKind when no stage of the other side's
// recall saw the memory (it was not a candidate there). It belongs to
// comparisons only: a trace item is always seen by the stage that drops it.
const DropNotRetrieved engine.DropKind = "not_retrieved"

// Comparison is what one query recalls at A and at B.
type Comparison struct {
	Query string    `json:"query"`
	AtA   time.Time `json:"at_a"`
	AtB   time.Time `json:"at_b"`
	// Forgotten: survivors at A that are forgotten at B — dropped out of
	// free recall and not recognised by the query, or superseded by a
	// newer memory by B (drop_kind superseded, superseded_by, valid_to) —
	// in the order they are forgotten (forget_at, then id).
	Forgotten []Change `json:"forgotten"`
	// Left: survivors at A missing at B although still remembered or
	// recognised (displaced by the k slots or the budget, or not yet
	// created at B).
	Left []Change `json:"left"`
	// Rose, Fell, Held: survivors at both, by rank (rose and fell by the
	// size of the move, then id; held by rank at B).
	Rose []Change `json:"rose"`
	Fell []Change `json:"fell"`
	Held []Change `json:"held"`
	// New: survivors at B that were not at A, by rank at B.
	New        []Change          `json:"new"`
	SurvivorsA []engine.Survivor `json:"survivors_a"`
	SurvivorsB []engine.Survivor `json:"survivors_b"`

	// The two read-only traces compared.
	A *engine.Trace `json:"-"`
	B *engine.Trace `json:"-"`
}

// Compare runs q read-only at atA and at atB and sets the two recalls side
// by side. q.At is ignored.
func Compare(ctx context.Context, e *engine.Engine, q engine.Query, atA, atB time.Time) (*Comparison, error) {
	qa, qb := q, q
	qa.At, qb.At = atA.UTC(), atB.UTC()
	a, err := Recall(ctx, e, qa)
	if err != nil {
		return nil, fmt.Errorf("compare at A: %w", err)
	}
	b, err := Recall(ctx, e, qb)
	if err != nil {
		return nil, fmt.Errorf("compare at B: %w", err)
	}
	return CompareTraces(e, a, b), nil
}

// side is what one trace knows about each memory.
type side struct {
	rank    map[int64]int
	final   map[int64]float64
	dropped map[int64]drop
	// kept: ids the temporal stage kept — remembered, or forgotten in free
	// recall but recognised by the query.
	kept map[int64]bool
	// recognised: ids the temporal stage kept by recognition.
	recognised map[int64]bool
}

// drop is where and why a trace dropped a memory.
type drop struct {
	stage  string
	kind   engine.DropKind
	reason string
}

func sideOf(tr *engine.Trace) side {
	s := side{rank: map[int64]int{}, final: map[int64]float64{}, dropped: map[int64]drop{},
		kept: map[int64]bool{}, recognised: map[int64]bool{}}
	for i, sv := range tr.Survivors {
		s.rank[sv.ID] = i + 1
	}
	for _, st := range tr.Stages {
		for _, it := range st.Items {
			if st.Name == "temporal" && it.DropKind == "" {
				s.kept[it.ID] = true
				s.recognised[it.ID] = it.Recognised
			}
			if v, ok := it.Scores["final_score"]; ok {
				s.final[it.ID] = v
			}
			if it.DropKind != "" {
				if _, seen := s.dropped[it.ID]; !seen {
					s.dropped[it.ID] = drop{stage: st.Name, kind: it.DropKind, reason: it.Dropped}
				}
			}
		}
	}
	return s
}

// why fills ch's reason from d, the drop on the other side (zero when no
// stage saw the memory there); other names that side ("A" or "B").
func (ch *Change) why(d drop, other string) {
	if d.kind == "" {
		ch.Reason, ch.DropKind = "not retrieved at "+other, DropNotRetrieved
		return
	}
	ch.Reason, ch.Stage, ch.DropKind = d.stage+": "+d.reason, d.stage, d.kind
}

// CompareTraces sets two recalls of one query side by side: a and b at
// two times on e (Compare), or under two policies (the TUI's experiment
// split), e then being B's engine — whether a memory missing from b is
// forgotten, and when, is decided by e's memories and policy. Memories are
// matched by id: the two arms' databases are built from the same fixture.
func CompareTraces(e *engine.Engine, a, b *engine.Trace) *Comparison {
	cfg := e.Config()
	sa, sb := sideOf(a), sideOf(b)
	c := &Comparison{
		Query: a.Query, AtA: a.At, AtB: b.At, A: a, B: b,
		Forgotten: []Change{}, Left: []Change{}, Rose: []Change{}, Fell: []Change{}, Held: []Change{}, New: []Change{},
		SurvivorsA: a.Survivors, SurvivorsB: b.Survivors,
	}
	change := func(sv engine.Survivor) Change {
		ch := Change{
			ID: sv.ID, Key: sv.Key, Text: sv.Text, Kind: sv.Kind, Type: sv.Type,
			RankA: sa.rank[sv.ID], RankB: sb.rank[sv.ID],
			FinalScoreA: sa.final[sv.ID], FinalScoreB: sb.final[sv.ID],
			RecognisedA: sa.recognised[sv.ID], RecognisedB: sb.recognised[sv.ID],
		}
		ch.FinalScoreDelta = round6(ch.FinalScoreB - ch.FinalScoreA)
		if ch.RankA > 0 && ch.RankB > 0 {
			ch.RankDelta = ch.RankA - ch.RankB
		}
		if m, ok := e.Memory(sv.ID); ok {
			ch.Importance = m.Importance
			ch.ForgetAt = engine.ForgetAt(m, cfg).UTC()
		}
		return ch
	}
	for _, sv := range a.Survivors {
		ch := change(sv)
		switch {
		case ch.RankB == 0:
			ch.why(sb.dropped[sv.ID], "B")
			m, ok := e.Memory(sv.ID)
			// A memory recognised at B (kept by the temporal stage although
			// forgotten in free recall) is still recalled: it left for
			// another reason. One superseded by B no longer holds then:
			// forgotten as of when it stopped holding.
			if ok && ch.DropKind == engine.DropSuperseded && m.SupersededBy != 0 {
				ch.SupersededBy, ch.ValidTo, ch.ForgetAt = m.SupersededBy, m.ValidTo.UTC(), m.ValidTo.UTC()
				c.Forgotten = append(c.Forgotten, ch)
			} else if ok && !m.CreatedAt.After(b.At) && engine.Forgotten(m, b.At, cfg) && !sb.kept[sv.ID] {
				c.Forgotten = append(c.Forgotten, ch)
			} else {
				c.Left = append(c.Left, ch)
			}
		case ch.RankDelta > 0:
			c.Rose = append(c.Rose, ch)
		case ch.RankDelta < 0:
			c.Fell = append(c.Fell, ch)
		default:
			c.Held = append(c.Held, ch)
		}
	}
	for _, sv := range b.Survivors {
		if sa.rank[sv.ID] == 0 {
			ch := change(sv)
			ch.why(sa.dropped[sv.ID], "A")
			c.New = append(c.New, ch)
		}
	}
	sort.SliceStable(c.Forgotten, func(i, j int) bool {
		x, y := c.Forgotten[i], c.Forgotten[j]
		if !x.ForgetAt.Equal(y.ForgetAt) {
			return x.ForgetAt.Before(y.ForgetAt)
		}
		return x.ID < y.ID
	})
	byMove := func(cs []Change, sign int) {
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].RankDelta != cs[j].RankDelta {
				return sign*cs[i].RankDelta > sign*cs[j].RankDelta
			}
			return cs[i].ID < cs[j].ID
		})
	}
	byMove(c.Rose, 1)
	byMove(c.Fell, -1)
	return c
}

// WriteText renders the comparison for a terminal: one section per kind of
// change, memory text sanitised and cut to fit a line.
func (c *Comparison) WriteText(w io.Writer) {
	fmt.Fprintf(w, "query   %s\n", safetext.SanitizeLine(c.Query))
	fmt.Fprintf(w, "A       %s   %s\n", c.AtA.Format(time.RFC3339), wording.Count(len(c.SurvivorsA), "survivor"))
	fmt.Fprintf(w, "B       %s   %s   (B − A = %s)\n\n", c.AtB.Format(time.RFC3339), wording.Count(len(c.SurvivorsB), "survivor"), days(c.AtB.Sub(c.AtA)))
	section := func(title string, cs []Change, line func(Change) string) {
		fmt.Fprintf(w, "%s (%d)\n", title, len(cs))
		for _, ch := range cs {
			fmt.Fprintf(w, "  #%-5d %-7s %s %s  %s\n", ch.ID, ch.Kind, safetext.PadRight(safetext.SanitizeLine(ch.Type), 12),
				line(ch), safetext.Truncate(safetext.SanitizeLine(ch.Text), 48))
		}
		fmt.Fprintln(w)
	}
	section("forgotten between A and B", c.Forgotten, func(ch Change) string {
		if ch.SupersededBy != 0 {
			return fmt.Sprintf("superseded by #%d on %s", ch.SupersededBy, ch.ValidTo.Format("2006-01-02"))
		}
		return fmt.Sprintf("importance %.2f  forgot at %s", ch.Importance, ch.ForgetAt.Format("2006-01-02"))
	})
	moved := func(ch Change) string {
		return fmt.Sprintf("rank %2d → %2d  final_score %.3f → %.3f", ch.RankA, ch.RankB, ch.FinalScoreA, ch.FinalScoreB)
	}
	section("rose", c.Rose, moved)
	section("fell", c.Fell, moved)
	section("held their rank", c.Held, moved)
	section("new at B", c.New, func(ch Change) string {
		return fmt.Sprintf("rank %2d  final_score %.3f", ch.RankB, ch.FinalScoreB)
	})
	// Left holds the survivors B's recall dropped as not yet created (B
	// before A): they were not written then, rather than remembered.
	var left, notYet []Change
	for _, ch := range c.Left {
		if ch.DropKind == engine.DropNotYetCreated {
			notYet = append(notYet, ch)
		} else {
			left = append(left, ch)
		}
	}
	rankWhy := func(ch Change) string {
		return fmt.Sprintf("rank %2d  (%s)", ch.RankA, safetext.Truncate(safetext.SanitizeLine(ch.Reason), 40))
	}
	section("left at B, still remembered", left, rankWhy)
	if len(notYet) > 0 {
		section("not yet written at B (created after it)", notYet, rankWhy)
	}
}

// days prints a duration in days ("+90d", "-1.5d").
func days(d time.Duration) string {
	return fmt.Sprintf("%+gd", round6(d.Hours()/24))
}
