package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/wording"
	"memtrace/policy"
)

// The experiment view's I/O, each in a tea.Cmd: reading the policies,
// building the two fixture databases and running the set on them
// (golden.RunExperiment), and W's write of B as the database's policy.

// startExperiment runs the set under A and B off the UI goroutine.
func (p goldenPane) startExperiment(sp experimentSpec) (goldenPane, tea.Cmd) {
	set, open, st := p.set, p.c.deps.OpenStore, p.c.deps.Store
	switch {
	case set == nil:
		p.err = "no golden set loaded: o opens one"
		return p, nil
	case set.Fixture == "":
		p.err = fmt.Sprintf("set %s has no fixture: the experiment builds one database per policy from a fixture; on the open database run `memtrace experiment %s --policy B.yaml`", set.Name, p.setPath)
		return p, nil
	case open == nil:
		p.err = fmt.Sprintf("this UI was started without a database opener; run `memtrace experiment %s --policy B.yaml`", p.setPath)
		return p, nil
	}
	p.exp.seq++
	p.exp.shown, p.exp.running, p.exp.spec, p.exp.confirm = true, true, sp, false
	p.err, p.status = "", ""
	seq, ctx, res := p.exp.seq, p.c.ctx, p.c.res
	return p, func() tea.Msg {
		a, b, err := experimentArms(ctx, st, sp.File)
		if err != nil {
			return send(paneGolden, goldenExperimentMsg{Seq: seq, Err: err})
		}
		armEngine := func(ctx context.Context, set *golden.Set, cfg engine.Config) (*engine.Engine, func(), error) {
			eng, closeFn, err := golden.FixtureEngineUnder(ctx, set, "", golden.StoreOpener(open), nil, cfg)
			if err != nil {
				return nil, nil, err
			}
			return eng, func() { _ = closeFn() }, nil
		}
		x, runs, err := golden.RunExperiment(ctx, set, sp.When, golden.Arm{Name: a.Name, Config: a.Config}, golden.Arm{Name: b.Name, Config: b.Config}, armEngine)
		if err != nil {
			return send(paneGolden, goldenExperimentMsg{Seq: seq, Err: err})
		}
		var arms [2]*fixtureDB
		for i, r := range runs {
			arms[i] = newFixtureDB(set, r.Engine, func() error { r.Close(); return nil })
			if res != nil {
				res.track(arms[i])
			}
		}
		return send(paneGolden, goldenExperimentMsg{Seq: seq, A: a, B: b, X: x, Arms: arms})
	}
}

// experimentArms are the two policies: with a file, A is the database's
// recorded policy (the defaults when it records none) and B the file;
// without one, A is the defaults and B the database's policy.
func experimentArms(ctx context.Context, st engine.Store, file string) (a, b experimentArm, err error) {
	db, err := curate.RecordedPolicy(ctx, st)
	if err != nil {
		return a, b, err
	}
	batch, err := curate.PolicyBatch(ctx, st)
	if err != nil {
		return a, b, err
	}
	dbArm := experimentArm{Name: "defaults", Config: db}
	if batch != "" {
		dbArm.Name = "the DB's policy (" + batch + ")"
	}
	if file == "" {
		if batch == "" {
			return a, b, engine.Errorf(engine.EINVALID, "the database records no policy, so it runs with the defaults: give B a policy file (memtrace help policy prints the schema)")
		}
		return experimentArm{Name: "defaults", Config: engine.DefaultConfig()}, dbArm, nil
	}
	cfg, err := policy.ReadFile(file)
	if err != nil {
		return a, b, engine.Errorf(engine.EINVALID, "policy B: %v", err)
	}
	return dbArm, experimentArm{Name: displayPath(file), Source: file, Config: cfg}, nil
}

// askWrite asks before W records B as the database's policy, saying what
// it changes against A.
func (p goldenPane) askWrite() (goldenPane, tea.Cmd) {
	a, b := p.exp.a.Config, p.exp.b.Config
	if a == (engine.Config{}) {
		a = engine.DefaultConfig()
	}
	changes := policy.Diff(a, b)
	if p.exp.b.Source == "" || len(changes) == 0 {
		p.status = "B is the policy the database already runs with: nothing to write"
		return p, nil
	}
	var keys []string
	capture := 0
	for _, c := range changes {
		keys = append(keys, c.Key+" "+c.A+" → "+c.B)
		if c.Phase == policy.Capture {
			capture++
		}
	}
	plan := "Write B (" + p.exp.b.Name + ") as the database's policy? " + strings.Join(keys, ", ") + "."
	if capture > 0 {
		plan += fmt.Sprintf(" %s %s to new captures only.", wording.Count(capture, "capture-time key"), wording.Agree(capture, "applies", "apply"))
	}
	p.exp.plan = plan + " One policy batch, undone by memtrace rollback (or u in Curate's history). y/n"
	p.exp.confirm = true
	return p, nil
}

// writePolicy records B as the database's policy: one policy batch.
func (p goldenPane) writePolicy() (goldenPane, tea.Cmd) {
	st, ctx, now := p.c.deps.Store, p.c.ctx, p.c.now
	text := string(policy.Encode(p.exp.b.Config))
	p.exp.writing = true
	p.status = "writing B as the database's policy…"
	return p, func() tea.Msg {
		batch, err := curate.SetPolicy(ctx, st, text, engine.ActorCurator, now())
		return send(paneGolden, goldenPolicyWrittenMsg{Batch: batch, Err: err})
	}
}

// policyWritten reports W's write as it happened.
func (p goldenPane) policyWritten(msg goldenPolicyWrittenMsg) goldenPane {
	p.exp.writing = false
	if msg.Err != nil {
		p.err = "write policy: " + engine.ErrorMessage(msg.Err)
		return p
	}
	p.err = ""
	p.status = fmt.Sprintf("recorded B as the database's policy: batch %s (memtrace rollback %s undoes it); this session's recalls keep the policy memtrace opened with until it restarts", msg.Batch, msg.Batch)
	return p
}
