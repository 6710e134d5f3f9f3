package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// cmdProposals lists proposals: `memtrace proposals [--status pending]
// [--kind K] [--json]`.
func cmdProposals(fs *flag.FlagSet) runFunc {
	status := enumString(fs, "status", engine.ProposalPending, "`STATUS`: pending, needs_review, approved, applied, rejected, rolled_back, withdrawn, or all",
		engine.ProposalPending, engine.ProposalReview, engine.ProposalApproved, engine.ProposalApplied, engine.ProposalRejected, engine.ProposalRolledBack, engine.ProposalWithdrawn, "all")
	kind := enumString(fs, "kind", "", "`KIND`: promote, demote, archive, quarantine, retype, restore, keep (leave the memory as it is)", engine.ProposalPromote, engine.ProposalDemote, engine.ProposalArchive, engine.ProposalQuarantine, engine.ProposalRetype, engine.ProposalRestore, engine.ProposalKeep)
	asJSON := fs.Bool("json", false, "print {\"proposals\": [...]} as JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		f := engine.ProposalFilter{Kind: *kind, Status: *status}
		if f.Status == "all" {
			f.Status = ""
		}
		db, _, err := openStore(e, true) // the store's proposals: no engine
		if err != nil {
			return err
		}
		defer db.Close()
		ps, err := db.FindProposals(e.ctx, f)
		if err != nil {
			return err
		}
		if *asJSON {
			if ps == nil {
				ps = []*engine.Proposal{}
			}
			return writeJSON(e.stdout, map[string]any{"proposals": ps})
		}
		if len(ps) == 0 {
			fmt.Fprintln(e.stdout, "no proposals; `memtrace heartbeat` and `memtrace cleanup` write them")
			return nil
		}
		targets, err := proposalTargets(e.ctx, db, ps)
		if err != nil {
			return err
		}
		tbl := textable.New("ID", "KIND", "STATUS", "PROPOSER", "MEMORY", "REASON").AlignRight(0).Cap(4, 60).Cap(5, 80)
		for _, p := range ps {
			target := "-"
			if p.MemoryID != 0 {
				target = strconv.FormatInt(p.MemoryID, 10)
				if m := targets[p.MemoryID]; m != nil {
					target += " " + m.Content
				}
			}
			if p.Kind == engine.ProposalPromote {
				if ev, err := engine.ParsePromotion(p); err == nil {
					target = fmt.Sprintf("lesson %s ×%d → “%s”", ev.LessonKey, ev.Count, ev.RuleWording())
				}
			}
			tbl.Add(p.ID, p.Kind, p.Status, p.Proposer, target, curate.ShownReason(p))
		}
		if err := tbl.Write(e.stdout); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, "approve with `memtrace approve ID…` (one audited batch, undo with `memtrace rollback BATCH`), or `memtrace reject ID…`")
		return nil
	}
}

// proposalTargets is each memory the proposals name, by id, read in one
// query.
func proposalTargets(ctx context.Context, q engine.MemoryQueries, ps []*engine.Proposal) (map[int64]*engine.Memory, error) {
	var ids []int64
	for _, p := range ps {
		if p.MemoryID != 0 {
			ids = append(ids, p.MemoryID)
		}
	}
	return memoriesByID(ctx, q, ids)
}

// proposalIDs parses positional proposal ids.
func proposalIDs(args []string) ([]int64, error) {
	var ids []int64
	for _, a := range args {
		id, err := strconv.ParseInt(strings.TrimPrefix(a, "#"), 10, 64)
		if err != nil || id <= 0 {
			return nil, usageError{fmt.Sprintf("%q is not a proposal id; list them with `memtrace proposals`", a)}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// cmdApprove applies proposals in one audited batch: `memtrace approve
// ID…|--all-pending [--kind K] [--wording TEXT] [--json]`.
func cmdApprove(fs *flag.FlagSet) runFunc {
	all := fs.Bool("all-pending", false, "approve every pending proposal (of --kind)")
	kind := enumString(fs, "kind", "", "with --all-pending: only this `KIND` (promote, demote, archive, quarantine, retype, restore)", engine.ProposalPromote, engine.ProposalDemote, engine.ProposalArchive, engine.ProposalQuarantine, engine.ProposalRetype, engine.ProposalRestore)
	newWording := fs.String("wording", "", "the HOT rule `TEXT` for a single promote proposal (the curator's edit)")
	curator := fs.String("as", engine.ActorCurator, "curator `NAME` recorded in the audit log")
	asJSON := fs.Bool("json", false, "print {\"batch\", \"applied\", \"items\"} as JSON")
	return func(e *env, pos []string) error {
		ids, err := proposalIDs(pos)
		if err != nil {
			return err
		}
		if *all == (len(ids) > 0) {
			return usageError{"name proposal ids or --all-pending (not both)"}
		}
		if *kind != "" && !*all {
			return usageError{"--kind goes with --all-pending"}
		}
		if *newWording != "" && len(ids) != 1 {
			return usageError{"--wording edits one promote proposal: name exactly one id"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		if *all {
			ps, err := eng.Store().FindProposals(e.ctx, engine.ProposalFilter{Status: engine.ProposalPending, Kind: *kind})
			if err != nil {
				return err
			}
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			if len(ids) == 0 {
				fmt.Fprintln(e.stdout, "no pending proposals to approve")
				return nil
			}
		}
		o := curate.ApproveOptions{Curator: *curator}
		if *newWording != "" {
			// The wording is a promotion's HOT rule; any other kind
			// would apply without it.
			p, err := eng.Store().GetProposal(e.ctx, ids[0])
			if err == nil && p.Kind != engine.ProposalPromote {
				return usageError{fmt.Sprintf("--wording is the HOT rule of a promote proposal; proposal %d is %s: approve it without --wording", p.ID, p.Kind)}
			}
			o.Wording = map[int64]string{ids[0]: *newWording}
		}
		res, err := curate.ApproveProposals(e.ctx, eng, ids, o)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, struct {
				Batch   string                   `json:"batch"`
				Applied int                      `json:"applied"`
				Items   []curate.AppliedProposal `json:"items"`
			}{res.Batch, len(res.Applied), res.Applied})
		}
		for _, a := range res.Applied {
			fmt.Fprintf(e.stdout, "#%d %s memory %d: %s → %s\n", a.ProposalID, a.Kind, a.MemoryID, a.From, a.To)
		}
		fmt.Fprintf(e.stdout, "applied %s in batch %s; undo with `memtrace rollback %s`\n", wording.Count(len(res.Applied), "proposal"), res.Batch, res.Batch)
		return nil
	}
}

// cmdReject rejects proposals: `memtrace reject ID… [--reason TEXT]`.
func cmdReject(fs *flag.FlagSet) runFunc {
	reason := fs.String("reason", "", "why, as `TEXT` (kept with the proposal)")
	curator := fs.String("as", engine.ActorCurator, "curator `NAME`")
	return func(e *env, pos []string) error {
		ids, err := proposalIDs(pos)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return usageError{"name the proposal ids to reject"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		res, err := curate.RejectProposalsInBatch(e.ctx, eng, ids, curate.RejectOptions{Curator: *curator, Reason: *reason, Now: eng.Now()})
		if err != nil {
			return err
		}
		if res.Rejected == 0 {
			fmt.Fprintln(e.stdout, "rejected 0 proposals: they were rejected already; nothing was changed")
			return nil
		}
		fmt.Fprintf(e.stdout, "rejected %s in batch %s; no memory was changed; `memtrace rollback %s` reopens them\n", wording.Count(res.Rejected, "proposal"), res.Batch, res.Batch)
		return nil
	}
}
