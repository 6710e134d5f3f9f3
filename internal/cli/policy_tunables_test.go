package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/policy"
)

// compiledIn is one tunable set to a value other than its default twice:
// as a policy file spells it, and as Go sets the struct field directly —
// what compiling the value in as the constant would do.
type compiledIn struct {
	key, value string
	set        func(*engine.Config)
}

// everyTunable names every key of the policy schema with a non-default
// value (TestPolicyEqualsCompiledIn checks none is missing).
var everyTunable = []compiledIn{
	{"capture.detail", "high", func(c *engine.Config) { c.Detail = engine.DetailHigh }},
	{"capture.dedupe_similarity", "0.6", func(c *engine.Config) { c.DedupeSimilarity = 0.6 }},
	{"capture.gate_similarity", "0.9", func(c *engine.Config) { c.GateSimilarity = 0.9 }},
	{"forgetting.half_life_fact", "3d", func(c *engine.Config) { c.HalfLifeFact = 3 * 24 * time.Hour }},
	{"forgetting.half_life_episode", "3d", func(c *engine.Config) { c.HalfLifeEpisode = 3 * 24 * time.Hour }},
	{"forgetting.threshold", "0.3", func(c *engine.Config) { c.ForgetThreshold = 0.3 }},
	{"association.threshold", "0.9", func(c *engine.Config) { c.AssocThreshold = 0.9 }},
	{"association.boost", "2", func(c *engine.Config) { c.AssocBoost = 2 }},
	{"association.boost_half_life", "1d", func(c *engine.Config) { c.BoostHalfLife = 24 * time.Hour }},
	{"recall.k", "2", func(c *engine.Config) { c.K = 2 }},
	{"recall.budget", "60", func(c *engine.Config) { c.Budget = 60 }},
	{"recall.candidate_pool", "3", func(c *engine.Config) { c.CandidatePool = 3 }},
	{"recall.mmr_lambda", "0.2", func(c *engine.Config) { c.MMRLambda = 0.2 }},
	{"recall.guaranteed_cap", "5", func(c *engine.Config) { c.GuaranteedCap = 5 }},
	{"recall.guaranteed_gate", "0.01", func(c *engine.Config) { c.GuaranteedGate = 0.01 }},
	{"recall.trace_keep", "3", func(c *engine.Config) { c.TraceKeep = 3 }},
	{"recall.time_cue_boost", "3", func(c *engine.Config) { c.Tuning.TimeCueBoost = 3 }},
	{"rerank.w_lexical_hashed", "0.2", func(c *engine.Config) { c.Tuning.WLexicalLexical = 0.2 }},
	{"rerank.w_lexical_semantic", "0.9", func(c *engine.Config) { c.Tuning.WLexicalSemantic = 0.9 }},
	{"rerank.relevance_floor", "0.5", func(c *engine.Config) { c.Tuning.RelevanceFloor = 0.5 }},
	{"gate.min_idf_share", "0.6", func(c *engine.Config) { c.Tuning.MinIDFShare = 0.6 }},
	{"gate.vector_only_cosine", "0.05", func(c *engine.Config) { c.Tuning.VectorOnlyCosine = 0.05 }},
	{"retention.beta_now", "0.01", func(c *engine.Config) { c.Tuning.BetaNow = 0.01 }},
	{"retention.beta_neutral", "1", func(c *engine.Config) { c.Tuning.BetaNeutral = 1 }},
	{"retention.beta_past", "1", func(c *engine.Config) { c.Tuning.BetaPast = 1 }},
	{"recognition.span", "1", func(c *engine.Config) { c.Tuning.RecognitionSpan = 1 }},
	{"recognition.cue", "0.9", func(c *engine.Config) { c.Tuning.RecognitionCue = 0.9 }},
	{"recognition.cue_now", "0.05", func(c *engine.Config) { c.Tuning.RecognitionCueNow = 0.05 }},
	{"expansion.concept", "1", func(c *engine.Config) { c.Tuning.ConceptWeight = 1 }},
	{"expansion.synonym", "1", func(c *engine.Config) { c.Tuning.SynonymWeight = 1 }},
	{"expansion.hyponym", "1", func(c *engine.Config) { c.Tuning.HyponymWeight = 1 }},
	{"expansion.hyponym2", "1", func(c *engine.Config) { c.Tuning.Hyponym2Weight = 1 }},
	{"expansion.two_hop", "1", func(c *engine.Config) { c.Tuning.TwoHopWeight = 1 }},
}

// tunableRun runs the demo set under cfg on a fixture captured under it
// (as experiment does), 90 days after the set's time so forgetting and
// recognition act, and returns each probe's trace as JSON without the
// stage timings; items only drops the notes too (what was ranked, scored
// and dropped).
func tunableRun(t *testing.T, cfg engine.Config) (full, items []string) {
	t.Helper()
	e := &env{ctx: context.Background(), dbPath: filepath.Join(t.TempDir(), "unused.db")}
	run, err := runUnder(e, demoSet, "+90d", cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range run.Probes {
		tr := *p.Trace
		tr.Stages = slices.Clone(tr.Stages)
		for i := range tr.Stages {
			tr.Stages[i].TookMS = 0
		}
		b, _ := json.Marshal(tr)
		full = append(full, p.ID+" "+string(b))
		for i := range tr.Stages {
			tr.Stages[i].Notes = nil
		}
		b, _ = json.Marshal(tr)
		items = append(items, p.ID+" "+string(b))
	}
	return full, items
}

// Recall under a policy equals recall with the same values compiled in:
// for every tunable of the schema, a non-default value read from a policy
// file gives the demo set's traces (every stage, score and note) exactly
// as the value set in the struct directly does; and the value changes the
// traces (a wired tunable acts), the items themselves — ranks, scores,
// drops — for all but the keys that cannot move a read-only recall of the
// demo set, each said why.
func TestPolicyEqualsCompiledIn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo set twice per tunable")
	}
	var keys []string
	for _, c := range everyTunable {
		keys = append(keys, c.key)
	}
	if !slices.Equal(keys, policy.Keys()) {
		t.Fatalf("the test's tunables %v are not the schema's %v", keys, policy.Keys())
	}
	// notesOnly: keys whose value the traces carry (a note) but that cannot
	// move the demo set's items.
	notesOnly := map[string]string{
		"association.boost_half_life": "the demo fixture holds no boost to decay",
		"recall.guaranteed_cap":       "no demo probe's recall adds a guaranteed memory",
		"recall.guaranteed_gate":      "no demo probe's recall adds a guaranteed memory",
	}
	// inert: keys the demo set's read-only traces cannot show.
	inert := map[string]string{
		"rerank.w_lexical_semantic": "the demo set recalls with the hashed embedder (recall's TestRelevanceWeightsFollowThePolicy covers it)",
		"recall.trace_keep":         "how many stored traces are kept, not what a recall does",
		"association.threshold":     "read by recall --commit-access, which a golden run never does",
		"association.boost":         "written by recall --commit-access, which a golden run never does",
		"recall.k":                  "every demo probe takes k from the set's defaults",
		"recall.budget":             "every demo probe takes its budget from the set's defaults",
		"recall.time_cue_boost":     "no demo probe names a period a fixture memory is of (recall's TestTimeCueBoostFollowsThePolicy covers it)",
		"capture.dedupe_similarity": "no two demo memories lie between the calibrated threshold and 1 once its statements are split (capture's TestDedupeSimilarityFollowsTheConfig covers it)",
	}
	_, defItems := tunableRun(t, engine.DefaultConfig())
	defFull, _ := tunableRun(t, engine.DefaultConfig())
	for _, c := range everyTunable {
		t.Run(c.key, func(t *testing.T) {
			sec, name, _ := strings.Cut(c.key, ".")
			fromFile, err := policy.Decode([]byte("# " + c.key + "\n" + sec + ":\n  " + name + ": " + c.value + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			compiled := engine.DefaultConfig()
			c.set(&compiled)
			if fromFile != compiled || compiled == engine.DefaultConfig() {
				t.Fatalf("policy %+v\ncompiled %+v", fromFile, compiled)
			}
			pFull, pItems := tunableRun(t, fromFile)
			cFull, _ := tunableRun(t, compiled)
			if !slices.Equal(pFull, cFull) {
				t.Fatalf("the traces under the policy differ from those with %s compiled in", c.key)
			}
			switch {
			case inert[c.key] != "":
				if !slices.Equal(pFull, defFull) {
					t.Fatalf("%s is listed as inert (%s) but moved the traces", c.key, inert[c.key])
				}
			case notesOnly[c.key] != "":
				if slices.Equal(pFull, defFull) || !slices.Equal(pItems, defItems) {
					t.Fatalf("%s: want a changed note and the same items (%s)", c.key, notesOnly[c.key])
				}
			case slices.Equal(pItems, defItems):
				t.Fatalf("%s=%s moved no item of any probe's trace: it is not wired into recall", c.key, c.value)
			}
		})
	}
}
