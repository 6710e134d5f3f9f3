package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
)

// cmdRollback runs `memtrace rollback BATCH [--yes [--force]] [--dry-run]
// [--json]`: it says what the rollback will do, by kind, and asks; with
// --yes it does not ask. A capture or import batch of more than
// engine.LargeRollback memories (a whole ingest run: its rollback
// quarantines everything the run remembered) needs a second confirmation:
// --force with --yes, or typing the number of memories at the prompt.
// Every memory the batch changed goes back to its state before it, and its
// proposals to rolled_back, in one transaction.
func cmdRollback(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print {\"batch\", \"restored\", \"effect\", \"proposals\"} as JSON")
	yes := fs.Bool("yes", false, "do not ask: roll back what the plan says")
	force := fs.Bool("force", false, fmt.Sprintf("with --yes: also a capture/import batch of more than %d memories", engine.LargeRollback))
	dryRun := fs.Bool("dry-run", false, "only say what the rollback would do")
	return func(e *env, rest []string) error {
		if len(rest) != 1 {
			return usageError{"name one batch id (`memtrace batches` lists them)"}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		batch := rest[0]
		plan, err := curate.PlanRollback(e.ctx, db, batch)
		if err != nil {
			return err
		}
		switch {
		case plan.RolledBack && plan.Proposals == 0:
			return engine.Errorf(engine.ECONFLICT, "batch %s was already rolled back; nothing changed", batch)
		case len(plan.Blocked) > 0:
			return engine.Errorf(engine.ECONFLICT, "cannot roll back batch %s: changed after it: %s; roll those changes back first",
				batch, strings.Join(plan.Blocked, ", "))
		case !plan.RolledBack && !plan.CanRollback():
			return engine.Errorf(engine.ECONFLICT, "rolling back batch %s would change nothing: what it did to %s is already undone", batch, wording.Memories(plan.Memories))
		}
		out := e.stdout
		if *asJSON {
			out = e.stderr // stdout carries only the JSON document
		}
		what := wording.RollbackPlan(plan)
		if plan.RolledBack {
			what = fmt.Sprintf("finish an interrupted rollback: mark %s rolled back", wording.Count(plan.Proposals, "proposal"))
		}
		fmt.Fprintf(out, "batch %s by %s at %s: rolling it back will %s\n", batch, plan.Actor, plan.At.UTC().Format("2006-01-02 15:04:05"), what)
		if *dryRun {
			fmt.Fprintf(out, "dry run: nothing changed; `memtrace rollback %s` rolls it back\n", batch)
			return nil
		}
		if !*yes {
			ok, err := confirmRollback(e, out, plan)
			if err != nil || !ok {
				return err
			}
		} else if plan.NeedsForce() && !*force {
			return engine.Errorf(engine.EINVALID, "batch %s is a capture run of %d memories; to roll all of it back add --force to --yes (`memtrace batches` shows what each batch did)",
				batch, plan.Effect.Changed())
		}
		rep, err := curate.RollbackApplied(e.ctx, db, batch, engine.ActorCurator)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		msg := fmt.Sprintf("rolled back batch %s: %s restored", rep.Batch, wording.Memories(rep.Restored))
		if rep.Effect.Changed() > 0 {
			msg += " (" + rep.Effect.String() + ")"
		}
		switch {
		case rep.Policy:
			msg = fmt.Sprintf("rolled back batch %s: the policy before it is restored (memtrace policy show)", rep.Batch)
		case rep.Rejected > 0 && rep.Restored == 0:
			msg = fmt.Sprintf("rolled back rejection %s: %s open again as they were; no memory changed", rep.Batch, wording.Count(rep.Rejected, "proposal"))
		}
		if rep.Proposals > 0 {
			msg += fmt.Sprintf("; %s marked rolled back", wording.Count(rep.Proposals, "proposal"))
		}
		if rep.Repaired {
			msg += " — an earlier rollback of it had stopped before this step"
		}
		fmt.Fprintln(e.stdout, msg)
		return nil
	}
}

// confirmRollback asks on stdin: y for an ordinary batch; for a large
// capture batch, the number of memories it changes.
func confirmRollback(e *env, out io.Writer, plan *engine.RollbackPlan) (bool, error) {
	in := bufio.NewReader(e.stdin)
	ask := func(prompt string) (string, error) {
		fmt.Fprint(out, prompt)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", engine.Errorf(engine.EINVALID, "no answer on standard input; roll back with --yes (and --force for a large capture batch) to confirm without asking")
		}
		return strings.TrimSpace(line), nil
	}
	a, err := ask("roll back? [y/N] ")
	if err != nil {
		return false, err
	}
	if a != "y" && a != "Y" && a != "yes" {
		return false, engine.Errorf(engine.ECONFLICT, "cancelled; nothing changed")
	}
	if plan.NeedsForce() {
		n := plan.Effect.Changed()
		a, err := ask(fmt.Sprintf("this is a whole capture run: it will change %s. Type %d to confirm: ", wording.Memories(n), n))
		if err != nil {
			return false, err
		}
		if a != strconv.Itoa(n) {
			return false, engine.Errorf(engine.ECONFLICT, "cancelled; nothing changed")
		}
	}
	return true, nil
}
