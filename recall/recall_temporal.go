package recall

import (
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
)

// Stage 4: temporal.

// SessionRecognitionShare: a forgotten memory whose session the query
// cues — another memory of that session has cue_strength at the
// recognition threshold — is recognised at this share of the threshold
// (context reinstatement: recognising one part of an episode brings back
// its other parts; at the default 0.25, a cue of 0.15). The temporal
// stage's note session_recognition names the sessions and what they kept.
const SessionRecognitionShare = 0.6

// temporal ages every item to q.At. Memories created after q.At do not
// exist yet; memories past their recognition horizon (UnrecognisableAt)
// are gone for every query; memories forgotten in free recall (decay ×
// importance < threshold) leave unless the query cues them specifically
// (cue_strength ≥ RecognitionCue), in which case they are recognised and
// stay. Every item ranks with
//
//	final_score = relevance_score × retention × (1 + boost)
//	retention   = 1 − β × (1 − decay),  β = β_intent × (1 − cue_strength)
//
// so age is a bounded prior whose weight the query's cue and temporal
// intent decide (QueryIntent). See DecayHelp.
func (r *recallRun) temporal(st *engine.StageTrace) {
	at := r.q.At
	intent, marker := QueryIntent(r.q.Text)
	ids := make([]int64, len(r.live))
	for i, c := range r.live {
		ids[i] = c.m.ID
	}
	cueWeights := r.weights
	if drop := MarkerTerms(r.q.Text); len(drop) > 0 {
		cueWeights = make(map[string]float64, len(r.weights))
		for t, w := range r.weights {
			if !drop[t] {
				cueWeights[t] = w
			}
		}
	}
	own, strength := cueScores(r.e, ids, cueWeights, r.docFreq, r.expandedFrom)
	periods := r.periods
	facts := make([]temporalFacts, len(r.live))
	for i, c := range r.live {
		c.decay = engine.DecayAt(c.m, at, r.cfg)
		c.boost = engine.BoostAt(c.m, at, r.cfg)
		f := &facts[i]
		*f = temporalFacts{cue: strength[i], recognition: engine.RecognitionDecayAt(c.m, at, r.cfg),
			forgetAt: engine.ForgetAt(c.m, r.cfg), unrecognisableAt: engine.UnrecognisableAt(c.m, r.cfg)}
		f.timeCued = c.ofPeriod
		c.facts = f
		weight := engine.DecayWeight(intent, f.cue, r.cfg)
		ret := engine.Retention(c.decay, weight)
		timeCue := 0.0
		if f.timeCued {
			timeCue = 1
		}
		c.final = engine.FinalScore(c.relevance, ret, c.boost) * (1 + r.cfg.Tuning.TimeCueBoost*timeCue)
		c.set("importance", engine.Clamp01(c.m.Importance))
		c.set("decay", c.decay)
		c.set("recognition_decay", f.recognition)
		c.set("cue_score", own[i])
		c.set("cue_strength", f.cue)
		c.set("decay_weight", weight)
		c.set("retention", ret)
		c.set("boost", c.boost)
		if len(periods) > 0 {
			c.set("time_cue", timeCue)
		}
		c.set("final_score", c.final)
	}
	cued := cuedSessions(r.live, intent, r.cfg)
	sortByScore(r.live, func(c *candidate) float64 { return c.final })
	var kept []*candidate
	dropped := r.dropBuf()
	var recognised []string
	sessionKept := 0
	day := func(t time.Time) string { return t.UTC().Format("2006-01-02") }
	// horizons is an item with the temporal stage's facts about c.
	horizons := func(it engine.TraceItem, c *candidate) engine.TraceItem {
		it.ForgetAt, it.UnrecognisableAt = c.facts.forgetAt.UTC(), c.facts.unrecognisableAt.UTC()
		return it
	}
	for _, c := range r.live {
		f := c.facts
		imp := engine.Clamp01(c.m.Importance)
		forgotten := engine.ForgottenAt(c.m, c.decay, r.cfg)
		switch {
		case c.m.CreatedAt.After(at):
			dropped = append(dropped, horizons(c.drop(engine.DropNotYetCreated, "not yet created at "+at.Format("2006-01-02T15:04Z07:00")+
				" (created "+c.m.CreatedAt.Format("2006-01-02T15:04Z07:00")+")"), c))
		case engine.BeyondRecognition(c.m, f.recognition, r.cfg):
			dropped = append(dropped, horizons(c.drop(engine.DropUnrecognisable, fmt.Sprintf("unrecognisable since %s: recognition_decay %s × importance %s < threshold %s (forgotten in free recall on %s); no cue finds it any more",
				day(f.unrecognisableAt), f3(f.recognition), f3(imp), f3(r.cfg.ForgetThreshold), day(f.forgetAt))), c))
		case forgotten && !engine.RecognisedBy(intent, f.cue, r.cfg) && !f.timeCued && !(cued[c.m.Session] && sessionRecognised(intent, f.cue, r.cfg)):
			dropped = append(dropped, horizons(c.drop(engine.DropForgotten, fmt.Sprintf("forgotten: decay %s × importance %s < threshold %s (forgot at %s); cue_strength %s < recognition %s (recognisable until %s)",
				f3(c.decay), f3(imp), f3(r.cfg.ForgetThreshold), day(f.forgetAt), f3(f.cue), f3(r.cfg.Tuning.RecognitionCue), day(f.unrecognisableAt))), c))
		case forgotten && !engine.RecognisedBy(intent, f.cue, r.cfg) && !f.timeCued:
			sessionKept++
			recognised = append(recognised, fmt.Sprintf("id %d: recognised through its session (forgotten in free recall on %s, unrecognisable after %s): cue_strength %s ≥ %s × %s, session %q cued",
				c.m.ID, day(f.forgetAt), day(f.unrecognisableAt), f3(f.cue), f3(SessionRecognitionShare), f3(recognitionCue(intent, r.cfg)), engine.SanitizeText(c.m.Session)))
			kept = append(kept, c)
			f.recognised = true
		case forgotten:
			recognised = append(recognised, fmt.Sprintf("id %d: recognised (forgotten in free recall on %s, unrecognisable after %s): cue_strength %s ≥ %s",
				c.m.ID, day(f.forgetAt), day(f.unrecognisableAt), f3(f.cue), f3(r.cfg.Tuning.RecognitionCue)))
			kept = append(kept, c)
			f.recognised = true
		default:
			kept = append(kept, c)
		}
	}
	st.Notes["at"] = at.Format("2006-01-02T15:04:05Z07:00")
	st.Notes["formula"] = "final_score = relevance_score × retention × (1 + boost); retention = 1 − decay_weight × (1 − decay); decay_weight = β_intent × (1 − cue_strength); decay = 2^(−Δt/H); see `memtrace help decay`"
	st.Notes["temporal_intent"] = string(intent)
	if marker != "" {
		st.Notes["intent_marker"] = marker
	}
	if len(periods) > 0 {
		var named []string
		for _, p := range periods {
			named = append(named, fmt.Sprintf("%q = [%s, %s)", p.text, p.from.Format("2006-01-02"), p.to.Format("2006-01-02")))
		}
		st.Notes["named_periods"] = strings.Join(named, "; ") + fmt.Sprintf(": a memory of one (created in it, or told of it soon after) ranks × (1 + %s)", f3(r.cfg.Tuning.TimeCueBoost))
	}
	st.Notes["intent_decay_weight"] = f3(engine.IntentDecayWeight(intent, r.cfg))
	st.Notes["half_life_fact"] = r.cfg.HalfLifeFact.String()
	st.Notes["half_life_episode"] = r.cfg.HalfLifeEpisode.String()
	st.Notes["forget_threshold"] = f3(r.cfg.ForgetThreshold)
	st.Notes["boost_half_life"] = r.cfg.BoostHalfLife.String()
	st.Notes["recognition"] = fmt.Sprintf("a forgotten memory stays when cue_strength ≥ %s (query idf mass in its own text, its neighbours' at their context weight) until its recognition horizon (R = %s × the free-recall span)",
		f3(r.cfg.Tuning.RecognitionCue), f3(r.cfg.Tuning.RecognitionSpan))
	if len(recognised) > 0 {
		st.Notes["recognised"] = strings.Join(recognised, "; ")
	}
	if len(cued) > 0 {
		st.Notes["session_recognition"] = fmt.Sprintf("a forgotten memory of a session in which another memory has cue_strength ≥ %s is recognised at cue_strength ≥ %s × that; %d sessions cued, %d memories kept by it",
			f3(recognitionCue(intent, r.cfg)), f3(SessionRecognitionShare), len(cued), sessionKept)
	}
	r.keep(st, kept, dropped)
	for i, c := range kept { // the kept items come first, in kept's order
		st.Items[i] = horizons(st.Items[i], c)
		st.Items[i].Recognised = c.facts.recognised
	}
	for _, c := range r.live {
		c.facts = nil
	}
}

// temporalFacts are the temporal stage's facts about one item, for its
// drop reasons and trace item.
type temporalFacts struct {
	cue, recognition           float64
	forgetAt, unrecognisableAt time.Time
	timeCued, recognised       bool
}

// cuedSessions are the sessions of which the query cues a memory at the
// recognition threshold (engine.RecognisedBy; cue_strength in the
// temporal facts).
func cuedSessions(cs []*candidate, intent engine.TemporalIntent, cfg engine.Config) map[string]bool {
	var out map[string]bool
	for _, c := range cs {
		if c.m.Session != "" && engine.RecognisedBy(intent, c.facts.cue, cfg) {
			if out == nil {
				out = map[string]bool{}
			}
			out[c.m.Session] = true
		}
	}
	return out
}

// recognitionCue is the cue_strength at which intent's queries recognise
// a forgotten memory (engine.RecognisedBy).
func recognitionCue(intent engine.TemporalIntent, cfg engine.Config) float64 {
	if intent == engine.IntentNow {
		return cfg.Tuning.RecognitionCueNow
	}
	return cfg.Tuning.RecognitionCue
}

// sessionRecognised reports whether cue recognises a forgotten memory of a
// cued session: SessionRecognitionShare of the threshold.
func sessionRecognised(intent engine.TemporalIntent, cue float64, cfg engine.Config) bool {
	return cue >= SessionRecognitionShare*recognitionCue(intent, cfg)
}
