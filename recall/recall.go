package recall

import (
	"context"
	"fmt"
	"maps"
	"math/bits"
	"sort"
	"strconv"
	"time"

	"memtrace/engine"
)

// Recall runs the recall pipeline for q and returns its full trace: the
// eleven stages of StageNames, in that order, each with the items it saw,
// their scores, and the reason for every item it dropped. The survivors of
// the last stage (`budget`) are what the agent receives, rendered in
// Trace.Prompt.
//
// Zero fields of q take defaults: At the engine clock, K and Budget the
// config's. q.At is a time override: memories are aged to it, and memories
// created after it do not exist yet.
//
// Determinism: the same memories, query and q.At give the same trace, byte
// for byte, except the timing fields (named *_ms, e.g. took_ms), which are
// the only nondeterministic values. Ties are broken by memory id.
//
// A Scores map may be shared by one memory's items in several stages (it is
// reused until a score changes); readers must not modify it.
//
// A read-only recall (q.ReadOnly) writes nothing. Otherwise, in one store
// transaction, every survivor's access is recorded (last_accessed_at = q.At,
// access_count + 1) and its neighbours gain an association boost (see
// DecayHelp and commitRecall).
func Recall(ctx context.Context, e *engine.Engine, q engine.Query) (*engine.Trace, error) {
	cfg := e.Config()
	if q.At.IsZero() {
		q.At = e.Now()
	}
	q.At = q.At.UTC()
	if q.K <= 0 {
		q.K = cfg.K
	}
	if q.Budget <= 0 {
		q.Budget = cfg.Budget
	}
	r := &recallRun{e: e, ctx: ctx, q: q, cfg: cfg}
	tr := &engine.Trace{
		Query: q.Text, At: q.At, Session: q.Session, Project: q.Project,
		K: q.K, Budget: q.Budget, ReadOnly: q.ReadOnly,
		Stages: make([]engine.StageTrace, 0, len(engine.StageNames)), Survivors: []engine.Survivor{},
	}
	for _, name := range engine.StageNames {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("recall: %w", err)
		}
		st := engine.StageTrace{Name: name, Items: []engine.TraceItem{}, Notes: map[string]string{}}
		start := time.Now()
		in := len(r.live)
		if err := r.stage(name, &st); err != nil {
			return nil, fmt.Errorf("recall stage %s: %w", name, err)
		}
		switch name {
		case "preprocess": // counts query words, set by the stage
		case "candidates": // in = out = the pool it built
			st.In, st.Out = len(r.live), len(r.live)
		default:
			st.In, st.Out = in, len(r.live)
		}
		st.TookMS = float64(time.Since(start).Microseconds()) / 1000
		tr.Stages = append(tr.Stages, st)
	}
	if r.lexicalOnly {
		tr.Fallback = "lexical"
	}
	tr.Prompt = r.prompt
	tr.PromptChars = runeCount(r.prompt)
	for _, c := range r.live {
		sv := engine.Survivor{
			ID: c.m.ID, Key: c.m.Key, Text: c.m.Content, Type: c.m.Type,
			Kind: c.m.Kind, Tier: c.m.Tier, Channel: c.channel,
		}
		if c.former {
			sv.SupersededBy, sv.ValidTo = c.m.SupersededBy, c.m.ValidTo
		}
		tr.Survivors = append(tr.Survivors, sv)
		if c.channel == ChannelGuaranteed {
			tr.Guaranteed++
		}
	}
	if !q.ReadOnly {
		if err := commitRecall(ctx, e, q, r.live, tr); err != nil {
			return nil, err
		}
	}
	return tr, nil
}

// Channels a survivor comes through.
const (
	ChannelSemantic   = "semantic"
	ChannelFact       = "fact"
	ChannelGuaranteed = "guaranteed"
)

// recallRun is the state of one recall as it moves through the stages.
// live holds the items still in the running, in the current stage's order.
type recallRun struct {
	e   *engine.Engine
	ctx context.Context
	q   engine.Query
	cfg engine.Config

	terms   []string           // kept query terms
	weights map[string]float64 // BM25 weight per distinct term, concept partners included
	// expandedFrom maps each concept partner in weights to the query term
	// it expands (recall_concept.go).
	expandedFrom map[string]string
	// docFreq is every weighted term's document frequency, recorded by the
	// lexical search (candidates) so later stages need not count again.
	docFreq map[string]int
	qvec    []float32
	// lexicalOnly: the embedder was unavailable, so the recall runs on
	// BM25, periods and HOT memories without the vector channel.
	lexicalOnly bool
	// generic are the query's generic terms (textnorm.IsGeneric), none when
	// every term is generic; qvecSpecific embeds the query without them
	// (qvec when it has none). See recall_relevance.go.
	generic      map[string]bool
	qvecSpecific []float32
	// periods are the periods the query names; onlyWhen: it asks nothing
	// besides when (recall_period_channel.go).
	periods  []period
	onlyWhen bool
	// periodBroad: the periods hold most of the store, so being of them
	// is no evidence; periodNarrow: they hold at most k memories, so being
	// of them is evidence on its own (periodEvidence).
	periodBroad, periodNarrow bool
	// periodCut are the query terms of the periods it names: never
	// unknown terms (recall_unknown.go).
	periodCut map[string]bool
	live      []*candidate
	spare     []engine.TraceItem // dropBuf
	prompt    string
	rendered  []promptLine
}

// stage dispatches one stage by name, so Recall runs exactly StageNames.
func (r *recallRun) stage(name string, st *engine.StageTrace) error {
	switch name {
	case "preprocess":
		return r.preprocess(st)
	case "candidates":
		return r.candidates(st)
	case "exclude":
		r.exclude(st)
	case "rerank":
		r.rerank(st)
	case "temporal":
		r.temporal(st)
	case "guaranteed":
		r.guaranteed(st)
	case "mmr":
		r.mmr(st)
	case "merge":
		r.merge(st)
	case "blend":
		r.blend(st)
	case "prompt":
		r.renderPrompt(st)
	case "budget":
		r.budget(st)
	default:
		return engine.Errorf(engine.EINTERNAL, "unknown recall stage %q", name)
	}
	return nil
}

// candidate is one memory in the running, with every score computed so
// far. Scores are recorded in the order they were computed so that the
// trace shows them stage by stage.
type candidate struct {
	m                         engine.Memory
	vec                       []float32
	fromLex, fromVec, fromHot bool
	ofPeriod                  bool    // of a period the query names (recall_period_channel.go)
	hop                       *hopVia // found in the second hop (recall_twohop.go)
	bm25, cosine, relevance   float64
	cosineSpecific            float64 // cosine to the query without its generic words
	decay, boost, final       float64
	channel                   string
	former                    bool           // superseded at the recall's time, recalled as a former fact
	facts                     *temporalFacts // during the temporal stage
	ev                        *termEvidence  // during the rerank stage
	scores                    []namedScore
	// snapshot is the Scores map last handed to a stage; it is reused until
	// a score changes, so stages that only filter allocate no maps. A map
	// in a trace is never written after it was handed out: the next one is
	// a copy with the changed scores (stale) written in.
	snapshot map[string]float64
	stale    uint64 // bit i: scores[i] was set since snapshot was made
}

type namedScore struct {
	name  string
	value float64
}

// set records a score under its name (replacing an earlier value).
func (c *candidate) set(name string, v float64) {
	i := 0
	for i < len(c.scores) && c.scores[i].name != name {
		i++
	}
	if i == len(c.scores) {
		c.scores = append(c.scores, namedScore{name, v})
	} else {
		c.scores[i].value = v
	}
	c.stale |= 1 << min(i, 63) // bit 63: "some score from the 64th on"
}

// scoreMap is the Scores map of c's current scores: the snapshot while no
// score changed; else a new map (the old one may be in a trace already),
// cloned from the snapshot when few scores changed, since copying a map is
// cheaper than filling one.
func (c *candidate) scoreMap() map[string]float64 {
	if c.stale == 0 && c.snapshot != nil {
		return c.snapshot
	}
	var m map[string]float64
	if changed := bits.OnesCount64(c.stale); c.snapshot != nil && c.stale>>63 == 0 && 2*changed <= len(c.scores) {
		m = maps.Clone(c.snapshot)
		for i := range c.scores {
			if c.stale&(1<<i) != 0 {
				m[c.scores[i].name] = round6(c.scores[i].value)
			}
		}
	} else {
		m = make(map[string]float64, len(c.scores))
		for _, ns := range c.scores {
			m[ns.name] = round6(ns.value)
		}
	}
	c.snapshot, c.stale = m, 0
	return m
}

// drop is c as a stage shows it when the stage drops it: kind for
// programs, reason for people.
func (c *candidate) drop(kind engine.DropKind, reason string) engine.TraceItem {
	it := c.item()
	it.DropKind, it.Dropped = kind, reason
	return it
}

// item is c as a stage shows it.
func (c *candidate) item() engine.TraceItem {
	it := engine.TraceItem{
		ID: c.m.ID, Key: c.m.Key, Text: c.m.Content, Type: c.m.Type, Kind: c.m.Kind,
		Tier: c.m.Tier, Channel: c.channel, Scores: c.scoreMap(),
	}
	if c.former {
		it.Superseded, it.SupersededBy, it.ValidTo = true, c.m.SupersededBy, c.m.ValidTo
	}
	return it
}

// keep appends the kept items to the stage in their order, then the
// dropped ones (already recorded by the caller), and replaces live.
func (r *recallRun) keep(st *engine.StageTrace, kept []*candidate, dropped []engine.TraceItem) {
	items := make([]engine.TraceItem, 0, len(kept)+len(dropped))
	for _, c := range kept {
		items = append(items, c.item())
	}
	st.Items = append(items, dropped...)
	r.live = kept
	if cap(dropped) > cap(r.spare) {
		r.spare = dropped[:0] // copied into the stage: the next may reuse it
	}
}

// dropBuf is an empty slice for a stage's dropped items, with room left by
// an earlier stage (keep copies them into the stage's own items).
func (r *recallRun) dropBuf() []engine.TraceItem { return r.spare[:0] }

// sortByScore orders candidates by score (higher first), ties by id.
func sortByScore(cs []*candidate, score func(*candidate) float64) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := score(cs[i]), score(cs[j])
		if a != b {
			return a > b
		}
		return cs[i].m.ID < cs[j].m.ID
	})
}

// round6 keeps scores readable and stable in JSON.
func round6(x float64) float64 {
	const p = 1e6
	if x >= 0 {
		return float64(int64(x*p+0.5)) / p
	}
	return -float64(int64(-x*p+0.5)) / p
}

// f3 is fmt.Sprintf("%.3f", x), without the formatter.
func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// Pipeline is an engine with its recall pipeline as a Recall method: what
// a caller that takes any recaller (golden's Runner and benchmarks) is
// handed.
type Pipeline struct{ *engine.Engine }

// Over is the recall pipeline over e.
func Over(e *engine.Engine) Pipeline { return Pipeline{e} }

// Recall runs Recall over the pipeline's engine.
func (p Pipeline) Recall(ctx context.Context, q engine.Query) (*engine.Trace, error) {
	return Recall(ctx, p.Engine, q)
}
