package golden

import (
	"context"

	"memtrace/engine"
	"memtrace/recall"
)

// Running an experiment: the one implementation `memtrace experiment`, its
// --sweep and the TUI's Golden experiment view share. Each arm runs the set
// on an engine its opener gives it under the arm's policy (a set with a
// fixture: a fresh database built under that policy's capture-time keys).

// Arm is one policy of an experiment: its name in the output and the
// policy (zero: the database's recorded policy, which a fresh fixture has
// none of, so the defaults).
type Arm struct {
	Name   string
	Config engine.Config
}

// ArmEngine opens the engine set runs against under cfg; closeFn releases
// it (and removes a scratch database).
type ArmEngine func(ctx context.Context, set *Set, cfg engine.Config) (eng *engine.Engine, closeFn func(), err error)

// ArmRun is one arm's run and the engine it ran on, open until Close (the
// TUI recalls its probes' traces from it).
type ArmRun struct {
	Run    *RunResult
	Engine *engine.Engine
	close  func()
}

// Close releases the arm's engine; a zero ArmRun closes nothing.
func (a ArmRun) Close() {
	if a.close != nil {
		a.close()
	}
}

// RunArm runs set under cfg on the engine open gives it, at `at` when it is
// not nil (an offset counts from the set's defaults.at, or from the
// engine's clock when the set has none). set itself is not changed. The
// caller closes the returned arm.
func RunArm(ctx context.Context, set *Set, at *engine.When, cfg engine.Config, open ArmEngine) (ArmRun, error) {
	eng, closeFn, err := open(ctx, set, cfg)
	if err != nil {
		return ArmRun{}, err
	}
	arm := ArmRun{Engine: eng, close: closeFn}
	s := *set
	if at != nil {
		s.Defaults.At = at.From(s.Defaults.Base(eng.Now()))
		s.Defaults.AtOffset = 0
	}
	runner := Runner{Now: eng.Now, Config: eng.Config()}
	if arm.Run, err = runner.Run(ctx, &s, recall.Over(eng), nil); err != nil {
		arm.Close()
		return ArmRun{}, err
	}
	return arm, nil
}

// RunExperiment runs set under a, then under b, and compares the runs
// probe by probe (Compare). The two arms stay open for the caller to close.
func RunExperiment(ctx context.Context, set *Set, at *engine.When, a, b Arm, open ArmEngine) (*Experiment, [2]ArmRun, error) {
	var arms [2]ArmRun
	for i, arm := range []Arm{a, b} {
		run, err := RunArm(ctx, set, at, arm.Config, open)
		if err != nil {
			arms[0].Close()
			return nil, [2]ArmRun{}, err
		}
		arms[i] = run
	}
	return Compare(arms[0].Run, arms[1].Run, PolicyName(a.Name), PolicyName(b.Name)), arms, nil
}
