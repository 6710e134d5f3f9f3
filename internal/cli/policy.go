package cli

import (
	"context"
	"flag"
	"fmt"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
	"memtrace/policy"
	"memtrace/store"
)

// The policy family: `memtrace policy show|set|diff` over the database's
// recorded policy (curate.SettingPolicy). Writes go through
// curate.SetPolicy, one batch each; `memtrace rollback BATCH` undoes one.

func policyCommands() []command {
	return []command{
		{name: "show", summary: "the policy this database runs with (every key, its value and when it acts)", define: cmdPolicyShow},
		{name: "set", args: "FILE", summary: "record FILE as the database's policy: one audited batch, undone by `memtrace rollback`; says what it will and will not change", define: cmdPolicySet},
		{name: "diff", args: "A B", summary: "the keys two policies set differently (each a file, or db: this database's)", define: cmdPolicyDiff},
	}
}

// recordedPolicy is the policy db records: its text decoded, or the
// defaults when none is recorded.
func recordedPolicy(ctx context.Context, db engine.Queries) (engine.Config, error) {
	return curate.RecordedPolicy(ctx, db)
}

// policyShowOutput is `memtrace policy show --json`.
type policyShowOutput struct {
	Batch  string         `json:"batch"` // the policy batch that set it; "" for the defaults
	Values []policy.Value `json:"values"`
}

func cmdPolicyShow(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, `print {"batch", "values": [{"key", "value", "phase"}]} as JSON`)
	return func(e *env, rest []string) error {
		if len(rest) != 0 {
			return usageError{"policy show takes no arguments"}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		cfg, err := recordedPolicy(e.ctx, db)
		if err != nil {
			return err
		}
		batch, err := curate.PolicyBatch(e.ctx, db)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, policyShowOutput{Batch: batch, Values: policy.Values(cfg)})
		}
		if batch == "" {
			fmt.Fprintln(e.stdout, "# the documented defaults (no policy recorded)")
		} else {
			fmt.Fprintf(e.stdout, "# set by batch %s (memtrace rollback %s restores the one before)\n", batch, batch)
		}
		_, err = e.stdout.Write(policy.Encode(cfg))
		return err
	}
}

func cmdPolicySet(fs *flag.FlagSet) runFunc {
	dryRun := fs.Bool("dry-run", false, "only say what would change")
	return func(e *env, rest []string) error {
		if len(rest) != 1 {
			return usageError{"name one policy file (`memtrace help policy` prints the schema)"}
		}
		cfg, err := policy.ReadFile(rest[0])
		if err != nil {
			return engine.Errorf(engine.EINVALID, "%v", err)
		}
		db, now, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		cur, err := recordedPolicy(e.ctx, db)
		if err != nil {
			return err
		}
		changes := policy.Diff(cur, cfg)
		if len(changes) == 0 {
			return engine.Errorf(engine.ECONFLICT, "%s sets the policy this database already runs with; nothing changed", rest[0])
		}
		printPolicyPlan(e, changes)
		if *dryRun {
			fmt.Fprintln(e.stdout, "dry run: nothing recorded; run it again without --dry-run to record the policy")
			return nil
		}
		batch, err := curate.SetPolicy(e.ctx, db, string(policy.Encode(cfg)), engine.ActorCurator, now())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "recorded the policy as batch %s; `memtrace rollback %s` restores the one before\n", batch, batch)
		return nil
	}
}

// printPolicyPlan says what a policy change will and will not change.
func printPolicyPlan(e *env, changes []policy.Change) {
	capture := 0
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "  %-30s %s → %s  (%s-time)\n", c.Key, c.A, c.B, c.Phase)
		if c.Phase == policy.Capture {
			capture++
		}
	}
	if capture > 0 {
		fmt.Fprintf(e.stdout, "%s: they apply to NEW captures only — no stored memory is re-judged, merged or removed\n", wording.Count(capture, "capture-time key"))
	}
	if capture < len(changes) {
		fmt.Fprintf(e.stdout, "%s: every recall from now on, over every stored memory; nothing stored is rewritten\n", wording.Count(len(changes)-capture, "recall-time key"))
	}
}

// policyDiffOutput is `memtrace policy diff --json`.
type policyDiffOutput struct {
	A       string          `json:"a"`
	B       string          `json:"b"`
	Changes []policy.Change `json:"changes"`
}

func cmdPolicyDiff(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, `print {"a", "b", "changes": [{"key", "a", "b", "phase"}]} as JSON`)
	return func(e *env, rest []string) error {
		if len(rest) != 2 {
			return usageError{"name two policies: files, or db for this database's"}
		}
		var cfgs [2]engine.Config
		for i, src := range rest {
			var err error
			if cfgs[i], err = policyFrom(e, src); err != nil {
				return err
			}
		}
		changes := policy.Diff(cfgs[0], cfgs[1])
		if *asJSON {
			return writeJSON(e.stdout, policyDiffOutput{A: rest[0], B: rest[1], Changes: append([]policy.Change{}, changes...)})
		}
		if len(changes) == 0 {
			fmt.Fprintln(e.stdout, "the two policies are the same")
			return nil
		}
		for _, c := range changes {
			fmt.Fprintf(e.stdout, "%-30s %s → %s  (%s-time)\n", c.Key, c.A, c.B, c.Phase)
		}
		return nil
	}
}

// policyFrom reads a policy: "db" is the database's recorded one, else a file.
func policyFrom(e *env, src string) (engine.Config, error) {
	if src != "db" {
		cfg, err := policy.ReadFile(src)
		if err != nil {
			return cfg, engine.Errorf(engine.EINVALID, "%v", err)
		}
		return cfg, nil
	}
	db, _, err := openStore(e, true)
	if err != nil {
		return engine.Config{}, err
	}
	defer db.Close()
	return recordedPolicy(e.ctx, db)
}

// withRecordedPolicy fills o.Config with db's recorded policy unless the
// caller chose one.
func withRecordedPolicy(ctx context.Context, db *store.DB, o *engine.Options) error {
	if o.Config != (engine.Config{}) {
		return nil
	}
	cfg, err := recordedPolicy(ctx, db)
	o.Config = cfg
	return err
}

// policyFlag reads --policy FILE ("": the zero Config, i.e. the
// database's recorded policy).
func policyFlag(path string) (engine.Config, error) {
	if path == "" {
		return engine.Config{}, nil
	}
	cfg, err := policy.ReadFile(path)
	if err != nil {
		return cfg, engine.Errorf(engine.EINVALID, "--policy: %v", err)
	}
	return cfg, nil
}
