package curate_test

import (
	"encoding/json"
	"math"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
)

// pair is n control items the judge gave verdict judge and the curator
// labelled curator ("" for not labelled yet).
type pair struct {
	judge, curator string
	n              int
}

// controlSample builds the control proposals of pairs.
func controlSample(t *testing.T, pairs ...pair) []*engine.Proposal {
	t.Helper()
	var out []*engine.Proposal
	for _, p := range pairs {
		for range p.n {
			v := engine.TriageVerdict{Verdict: p.judge, Reason: "r", Confidence: 0.9}
			if p.judge == engine.TriageRetype {
				v.RetypeTo = "note"
			}
			b, err := json.Marshal(curate.ProposalVerdict{TriageVerdict: v, Control: true, CuratorLabel: p.curator})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, &engine.Proposal{ID: int64(len(out) + 1), MemoryID: int64(len(out) + 1), Verdict: b})
		}
	}
	return out
}

// Cohen's κ against values worked out by hand. κ = (p_o − p_e) / (1 − p_e),
// p_o the observed agreement, p_e the agreement expected by chance from
// the two raters' class frequencies. Classes are actions: keep, quarantine
// (echo and roleplay_scene alike), retype.
func TestControlStatsKappa(t *testing.T) {
	const (
		keep, echo, scene, retype = engine.TriageKeep, engine.TriageEcho, engine.TriageRoleplay, engine.TriageRetype
	)
	for _, c := range []struct {
		name        string
		pairs       []pair
		agreement   float64
		kappa       float64
		falseKeeps  int
		falseQuars  int
		labelled    int
		sampleTotal int
	}{{
		// The textbook two-rater example (50 items):
		//	                 curator keep   curator quarantine
		//	judge keep           20               5
		//	judge quarantine     10              15
		// p_o = 35/50 = 0.70; p_e = (25/50)(30/50) + (25/50)(20/50) = 0.30 + 0.20 = 0.50;
		// κ = (0.70 − 0.50) / 0.50 = 0.40.
		name:      "two classes, textbook",
		pairs:     []pair{{keep, keep, 20}, {keep, echo, 5}, {echo, keep, 10}, {echo, echo, 15}},
		agreement: 0.70, kappa: 0.40, falseKeeps: 5, falseQuars: 10, labelled: 50, sampleTotal: 50,
	}, {
		// Three classes, 10 items; roleplay_scene counts as quarantine:
		//	judge keep:       curator keep 3, quarantine 1
		//	judge quarantine: curator keep 1, quarantine 3 (1 of them roleplay_scene)
		//	judge retype:     curator retype 2
		// p_o = 8/10 = 0.80; both raters 4 keep, 4 quarantine, 2 retype:
		// p_e = 0.4·0.4 + 0.4·0.4 + 0.2·0.2 = 0.36; κ = 0.44 / 0.64 = 0.6875.
		name:      "three classes",
		pairs:     []pair{{keep, keep, 3}, {keep, echo, 1}, {echo, echo, 2}, {scene, scene, 1}, {echo, keep, 1}, {retype, "retype:note", 2}},
		agreement: 0.80, kappa: 0.6875, falseKeeps: 1, falseQuars: 1, labelled: 10, sampleTotal: 10,
	}, {
		// Agreement no better than chance: the judge keeps all 4, the
		// curator keeps 2. p_o = 0.5; p_e = 1·0.5 + 0·0.5 = 0.5; κ = 0.
		name:      "chance agreement",
		pairs:     []pair{{keep, keep, 2}, {keep, echo, 2}},
		agreement: 0.5, kappa: 0, falseKeeps: 2, labelled: 4, sampleTotal: 4,
	}, {
		// Both raters keep everything: p_o = p_e = 1, κ undefined; reported
		// as 1 (perfect agreement).
		name:      "one class only",
		pairs:     []pair{{keep, keep, 5}},
		agreement: 1, kappa: 1, labelled: 5, sampleTotal: 5,
	}, {
		// Unlabelled items count in the sample, not in the figures: the
		// two labelled ones disagree completely. p_o = 0; judge 1 keep 1
		// quarantine, curator the reverse: p_e = 0.5·0.5 + 0.5·0.5 = 0.5;
		// κ = (0 − 0.5) / 0.5 = −1.
		name:      "partly labelled",
		pairs:     []pair{{keep, echo, 1}, {echo, keep, 1}, {keep, "", 3}},
		agreement: 0, kappa: -1, falseKeeps: 1, falseQuars: 1, labelled: 2, sampleTotal: 5,
	}} {
		t.Run(c.name, func(t *testing.T) {
			s := curate.ComputeControlStats(controlSample(t, c.pairs...))
			if s.Sample != c.sampleTotal || s.Labelled != c.labelled {
				t.Errorf("sample %d labelled %d, want %d and %d", s.Sample, s.Labelled, c.sampleTotal, c.labelled)
			}
			if math.Abs(s.Agreement-c.agreement) > 1e-12 || math.Abs(s.Kappa-c.kappa) > 1e-12 {
				t.Errorf("agreement %v κ %v, want %v and %v", s.Agreement, s.Kappa, c.agreement, c.kappa)
			}
			if s.FalseKeeps != c.falseKeeps || s.FalseQuarantines != c.falseQuars {
				t.Errorf("false keeps %d, false quarantines %d; want %d and %d", s.FalseKeeps, s.FalseQuarantines, c.falseKeeps, c.falseQuars)
			}
		})
	}
}
