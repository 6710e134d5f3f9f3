package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/ollama"
	"memtrace/tiers"
)

func cmdHeartbeat(fs *flag.FlagSet) runFunc {
	every := fs.Duration("every", 0, "run a pass every interval until Ctrl-C (e.g. 4h)")
	at := fs.String("at", "", "simulate the pass at time `T`: +30d, +1w, a date or RFC 3339 (offsets from the database clock)")
	asJSON := fs.Bool("json", false, "print {\"at\", \"proposals\": [...], \"scopes\", \"already_pending\", \"max_share\", \"budget\", \"waiting\", …} as JSON")
	dry := fs.Bool("dry-run", false, "report what is due without writing proposals (e.g. with --at)")
	review := fs.Bool("review", false, "have the local Ollama judge review each new promotion candidate first")
	model := fs.String("model", judgeModelFromEnv(), "judge `MODEL` for --review ($MEMTRACE_JUDGE_MODEL sets the default)")
	timeout := fs.Duration("timeout", 60*time.Second, "judge timeout per call for --review")
	maxShare := fs.Float64("max-share", tiers.DefaultMaxShare, "the age rules keep at most this `SHARE` (0..1) of the active memories waiting (see memtrace help heartbeat)")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		if *maxShare <= 0 || *maxShare > 1 {
			return usageError{fmt.Sprintf("--max-share %v must be in (0, 1], e.g. 0.1 for 10 %%", *maxShare)}
		}
		if *every < 0 || (*every > 0 && *every < time.Second) {
			return usageError{"--every must be at least 1s"}
		}
		if f := givenFlag(fs, "model", "timeout"); f != "" && !*review {
			return usageError{f + " is for the judge of --review: add --review, or leave " + f + " out"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		var reviewer engine.PromotionReviewer
		if *review {
			c := ollama.NewClient(ollama.ClientConfig{Timeout: *timeout, Notify: breakerNotice(e)})
			if _, err := c.ChatModelInfo(e.ctx, *model); err != nil {
				return err
			}
			reviewer = ollama.NewPromotionReviewer(c, ollama.Options{Model: *model})
		}
		for {
			when, err := engine.ParseAt(*at, eng.Now())
			if err != nil {
				return usageError{"--at: " + engine.ErrorMessage(err)}
			}
			if err := eng.Refresh(e.ctx); err != nil {
				return err
			}
			rep, err := tiers.Heartbeat(e.ctx, eng, tiers.HeartbeatOptions{At: when, Reviewer: reviewer, DryRun: *dry, MaxShare: *maxShare})
			if err != nil {
				return err
			}
			if *asJSON {
				if err := writeJSON(e.stdout, rep); err != nil {
					return err
				}
			} else {
				printHeartbeat(e.stdout, rep)
			}
			if *every == 0 {
				return nil
			}
			select {
			case <-e.ctx.Done():
				return nil
			case <-time.After(*every):
			}
		}
	}
}

func printHeartbeat(w io.Writer, r *tiers.HeartbeatReport) {
	verb := "new proposals"
	if r.DryRun {
		verb = "proposals due (dry run: nothing written)"
	}
	fmt.Fprintf(w, "heartbeat at %s: %d %s (%d already waiting)\n", r.At.Format(time.RFC3339), len(r.Proposals), verb, r.AlreadyPending)
	if len(r.Proposals) > 0 {
		tbl := textable.New("ID", "KIND", "MEMORY", "RULE", "EVIDENCE", "REASON").AlignRight(0).Cap(2, 40).Cap(4, 70).Cap(5, 100)
		for _, p := range r.Proposals {
			mem := "-"
			if p.MemoryID != 0 {
				mem = fmt.Sprint(p.MemoryID)
			} else if p.LessonKey != "" {
				mem = "lesson " + p.LessonKey
			}
			tbl.Add(p.ID, p.Kind, mem, p.Rule, heartbeatEvidence(p.Evidence), p.Reason)
		}
		tbl.Write(w)
	}
	if r.Waiting > 0 {
		fmt.Fprintf(w, "%d more due, not proposed: %s\n", r.Waiting, r.WaitingReason)
	}
	fmt.Fprintln(w, "tiers:")
	for _, s := range r.Scopes {
		mark := ""
		if s.Over() {
			mark = "  OVER CAP"
		}
		if s.Cap > 0 {
			fmt.Fprintf(w, "  %s %4d/%d lines%s\n", safetext.PadRight(safetext.SanitizeLine(s.File), 28), s.Lines, s.Cap, mark)
		} else {
			fmt.Fprintf(w, "  %s %4d lines\n", safetext.PadRight(safetext.SanitizeLine(s.File), 28), s.Lines)
		}
	}
	if len(r.Proposals) > 0 && !r.DryRun {
		fmt.Fprintln(w, "nothing was moved; review with `memtrace proposals`, then `memtrace approve ID…` or `memtrace reject ID…`")
	}
}

// heartbeatEvidence is a lifecycle proposal's evidence on one line.
func heartbeatEvidence(ev *tiers.LifecycleEvidence) string {
	if ev == nil {
		return "-"
	}
	vital := ""
	if ev.Vital {
		vital = " vital"
	}
	return fmt.Sprintf("used %s, %d×, imp %.2f, forget %s, reach %d, score %.2f%s",
		ev.LastUse.Format("2006-01-02"), ev.AccessCount, ev.Importance, ev.ForgetAt.Format("2006-01-02"), ev.Reach, ev.Score, vital)
}
