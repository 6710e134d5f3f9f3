package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/wording"
	"memtrace/policy"
)

// `memtrace experiment SET --policy A.yaml --policy B.yaml`: the set's
// probes under two policies on the same data — a set with a fixture builds
// it afresh per policy (its capture-time keys decide what is stored), one
// without runs on --db — compared probe by probe (golden.Compare).

// policyList is a repeatable --policy flag.
type policyList []string

func (p *policyList) String() string { return strings.Join(*p, ",") }
func (p *policyList) Set(s string) error {
	if len(*p) == 2 {
		return fmt.Errorf("at most two policies (A and B)")
	}
	*p = append(*p, s)
	return nil
}

func cmdExperiment(fs *flag.FlagSet) runFunc {
	var policies policyList
	fs.Var(&policies, "policy", "a policy `FILE` (give it twice: A then B; once: the defaults against it)")
	at := fs.String("at", "", "run at time `T` instead of the set's defaults.at (as golden run --at)")
	asJSON := fs.Bool("json", false, `print {"set", "policy_a", "policy_b", "a", "b", "differences", "flipped", "regressed", "probes": [… with both traces]} as JSON`)
	failOnRegression := fs.Bool("fail-on-regression", false, "exit 1 when a probe that passes under A fails under B (A is the baseline policy)")
	sweep := fs.String("sweep", "", "vary one key instead: `KEY=V1,V2,…` over the first --policy (none: the defaults), plotted against the value")
	return func(e *env, words []string) error {
		if len(words) != 1 {
			return usageError{"give one golden set file, e.g. testdata/golden/demo.yaml"}
		}
		if *sweep != "" {
			if len(policies) > 1 {
				return usageError{"--sweep varies one policy: give at most one --policy"}
			}
			return runSweep(e, words[0], *at, policies, *sweep, *asJSON)
		}
		if len(policies) == 0 {
			return usageError{"give the policy to try with --policy FILE (twice to compare two files)"}
		}
		names := []string{"", policies[0]}
		if len(policies) == 2 {
			names = []string{policies[0], policies[1]}
		}
		var arms [2]golden.Arm
		for i, name := range names {
			cfg, err := policyFlag(name)
			if err != nil {
				return err
			}
			arms[i] = golden.Arm{Name: name, Config: cfg}
		}
		when, set, err := experimentSet(words[0], *at)
		if err != nil {
			return err
		}
		x, runs, err := golden.RunExperiment(e.ctx, set, when, arms[0], arms[1], armEngine(e))
		if err != nil {
			return err
		}
		runs[0].Close()
		runs[1].Close()
		if *asJSON {
			if err := writeJSONText(e.stdout, x); err != nil {
				return err
			}
		} else {
			x.WriteText(e.stdout)
		}
		if *failOnRegression && x.Regressed {
			return engine.Errorf(engine.EINVALID, "regression: a probe passing under %s fails under %s; see the probes above", x.PolicyA, x.PolicyB)
		}
		return nil
	}
}

// experimentSet reads an experiment's set and its --at.
func experimentSet(setPath, at string) (*engine.When, *golden.Set, error) {
	when, err := parseSetAt(at)
	if err != nil {
		return nil, nil, err
	}
	set, err := loadSet(setPath)
	return when, set, err
}

// armEngine opens an experiment arm's engine: a fresh scratch database
// built from the set's fixture under the arm's policy (goldenEngine), or
// the --db database when the set has none; closing it drops the scratch.
func armEngine(e *env) golden.ArmEngine {
	return func(_ context.Context, set *golden.Set, cfg engine.Config) (*engine.Engine, func(), error) {
		fixture, drop, err := scratchDatabase(e, "experiment")
		if err != nil {
			return nil, nil, fmt.Errorf("experiment: %w", err)
		}
		eng, closeDB, err := goldenEngine(e, set, fixture, cfg)
		if err != nil {
			drop()
			return nil, nil, err
		}
		return eng, func() { closeDB(); drop() }, nil
	}
}

// runUnder runs the set at setPath under cfg (golden.RunArm on armEngine).
func runUnder(e *env, setPath, at string, cfg engine.Config) (*golden.RunResult, error) {
	when, set, err := experimentSet(setPath, at)
	if err != nil {
		return nil, err
	}
	arm, err := golden.RunArm(e.ctx, set, when, cfg, armEngine(e))
	if err != nil {
		return nil, err
	}
	arm.Close()
	return arm.Run, nil
}

// runSweep runs `experiment --sweep KEY=V1,V2,…`: the base policy (the one
// --policy, else the defaults) with KEY set to each value.
func runSweep(e *env, setPath, at string, policies policyList, spec string, asJSON bool) error {
	key, list, ok := strings.Cut(spec, "=")
	if !ok || strings.TrimSpace(list) == "" {
		return usageError{"--sweep takes KEY=V1,V2,… e.g. forgetting.half_life_episode=3d,7d,14d,30d"}
	}
	baseName := ""
	if len(policies) == 1 {
		baseName = policies[0]
	}
	base, err := policyFlag(baseName)
	if err != nil {
		return err
	}
	if base == (engine.Config{}) {
		base = engine.DefaultConfig()
	}
	baseRun, err := runUnder(e, setPath, at, base)
	if err != nil {
		return err
	}
	sw := golden.Sweep{Set: baseRun.Set, Base: golden.PolicyName(baseName), Key: key}
	for _, v := range strings.Split(list, ",") {
		cfg := base
		if err := policy.Set(&cfg, key, v); err != nil {
			return usageError{"--sweep: " + err.Error()}
		}
		run, err := runUnder(e, setPath, at, cfg)
		if err != nil {
			return err
		}
		x := golden.Compare(baseRun, run, sw.Base, v)
		sw.Points = append(sw.Points, golden.SweepPoint{Value: strings.TrimSpace(v), Figures: x.B, Differences: x.Differences, Flipped: x.Flipped})
	}
	if asJSON {
		return writeJSONText(e.stdout, sw)
	}
	fmt.Fprintf(e.stdout, "sweep %s over %s (%s): %s\n\n", key, sw.Set, sw.Base, wording.Count(baseRun.Summary.Probes, "probe"))
	fmt.Fprint(e.stdout, sw.Plot())
	fmt.Fprintln(e.stdout)
	for _, p := range sw.Points {
		fmt.Fprintf(e.stdout, "%s=%s: %d/%d passed, %s differ from %s, %d flipped\n", key, p.Value, p.Figures.Passed, p.Figures.Probes, wording.Count(p.Differences, "probe"), sw.Base, p.Flipped)
	}
	return nil
}
