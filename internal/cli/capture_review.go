package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/textable"
)

// reviewCommands are `memtrace review list|retry|store|skip`: the queue of
// captures the judge held as needs_review. A held message is never lost:
// it waits here until the judge is asked again or a curator decides.
func reviewCommands() []command {
	return []command{
		{name: "list", summary: "the review queue (what `memtrace review` alone shows)", define: reviewList},
		{name: "retry", args: "[ID…]", summary: "offer held items (the ids, or --all) to the judge again", define: reviewRetry},
		{name: "store", args: "ID…", summary: "store held items as memories by hand", define: reviewStore},
		{name: "skip", args: "ID…", summary: "decide held items are not memories", define: reviewSkip},
	}
}

func reviewList(fs *flag.FlagSet) runFunc {
	status := enumString(fs, "status", engine.ReviewHeld, "`STATUS`: held, stored, reinforced, dropped, skipped, or all",
		engine.ReviewHeld, engine.ReviewStored, engine.ReviewReinforced, engine.ReviewDropped, engine.ReviewSkipped, "all")
	asJSON := fs.Bool("json", false, `print {"items": [...], "total": n} as JSON`)
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		f := engine.ReviewFilter{Status: *status}
		switch *status {
		case "all":
			f.Status = ""
		case engine.ReviewHeld, engine.ReviewStored, engine.ReviewReinforced, engine.ReviewDropped, engine.ReviewSkipped:
		default:
			return usageError{fmt.Sprintf("--status %q: want held, stored, reinforced, dropped, skipped or all", *status)}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		items, total, err := db.FindReviews(e.ctx, f)
		if err != nil {
			return err
		}
		if *asJSON {
			if items == nil {
				items = []*engine.ReviewItem{}
			}
			return writeJSONText(e.stdout, map[string]any{"items": items, "total": total})
		}
		if len(items) == 0 {
			which := *status + " "
			if *status == "all" {
				which = ""
			}
			fmt.Fprintf(e.stdout, "no %sreview items; a capture holds a message here when the judge's answer does not validate (`ingest --judge MODEL`) or it holds a secret value (`--secrets hold`)\n", which)
			return nil
		}
		printReviewItems(e.stdout, items)
		if *status == engine.ReviewHeld {
			fmt.Fprintln(e.stdout, "ask the judge again with `memtrace review retry --all --judge MODEL`, or decide by hand: `memtrace review store ID… [--type T]`, `memtrace review skip ID… [--reason TEXT]`")
		}
		return nil
	}
}

func printReviewItems(w io.Writer, items []*engine.ReviewItem) {
	tbl := textable.New("ID", "STATUS", "TRIES", "MESSAGE", "TEXT", "REASON").AlignRight(0, 2).Cap(3, 24).Cap(4, 60).Cap(5, 70)
	for _, it := range items {
		why := it.Reason
		if it.Status != engine.ReviewHeld {
			why = it.Note
			if it.MemoryID != 0 {
				why = strings.TrimSuffix(fmt.Sprintf("memory %d; %s", it.MemoryID, why), "; ")
			}
		}
		tbl.Add(it.ID, it.Status, it.Attempts, it.MessageID, it.Text, why)
	}
	tbl.Write(w)
}

// reviewIDs parses positional review item ids.
func reviewIDs(args []string) ([]int64, error) {
	var ids []int64
	for _, a := range args {
		id, err := strconv.ParseInt(strings.TrimPrefix(a, "#"), 10, 64)
		if err != nil || id <= 0 {
			return nil, usageError{fmt.Sprintf("%q is not a review item id; list them with `memtrace review list`", a)}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// ReviewRetryStats is the `review retry --json` result.
type ReviewRetryStats struct {
	Batch       string               `json:"batch"`
	Offered     int                  `json:"offered"`
	Stored      int                  `json:"stored"`
	Reinforced  int                  `json:"reinforced"`
	Dropped     int                  `json:"dropped"`
	NeedsReview int                  `json:"needs_review"` // still held
	JudgeErrors int                  `json:"judge_errors"` // held because the judge failed (counted in needs_review too)
	Items       []*engine.ReviewItem `json:"items"`
}

func reviewRetry(fs *flag.FlagSet) runFunc {
	all := fs.Bool("all", false, "offer every held item again")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	jf := addJudgeFlags(fs)
	return func(e *env, words []string) error {
		ids, err := reviewIDs(words)
		if err != nil {
			return err
		}
		switch {
		case *all == (len(ids) > 0):
			return usageError{"name review item ids, or --all for every held item"}
		}
		eng, closeEngine, err := openJudgedEngine(e, jf, true)
		if err != nil {
			return err
		}
		defer closeEngine()
		f := engine.ReviewFilter{IDs: ids}
		if *all {
			f.Status = engine.ReviewHeld
		}
		items, _, err := eng.Store().FindReviews(e.ctx, f)
		if err != nil {
			return err
		}
		if len(ids) > 0 && len(items) != len(ids) {
			return engine.Errorf(engine.ENOTFOUND, "only %d of the %d review items named exist; `memtrace review list --status all` shows them", len(items), len(ids))
		}
		if jf.model == "" {
			// Without a judge only the statements held because the embedder
			// was away are offered again (to the rules, which held them).
			if items, err = unembeddedOnly(items, *all); err != nil {
				return err
			}
		}
		st := ReviewRetryStats{Items: []*engine.ReviewItem{}}
		if len(items) > 0 {
			c, err := capture.NewCapturer(e.ctx, eng)
			if err != nil {
				return err
			}
			batch, rs, err := c.Reoffer(e.ctx, items)
			if err != nil {
				return err
			}
			st.Batch = batch
			for _, r := range rs {
				st.Offered++
				switch r.Outcome {
				case engine.OutcomeStored:
					st.Stored++
				case engine.OutcomeReinforced:
					st.Reinforced++
				case engine.OutcomeHeld:
					st.NeedsReview++
				default:
					st.Dropped++
				}
				if r.JudgeError {
					st.JudgeErrors++
				}
			}
			ids := make([]int64, len(items))
			for i, it := range items {
				ids[i] = it.ID
			}
			if st.Items, _, err = eng.Store().FindReviews(e.ctx, engine.ReviewFilter{IDs: ids}); err != nil {
				return err
			}
		}
		if *asJSON {
			return writeJSONText(e.stdout, st)
		}
		if st.Offered == 0 {
			fmt.Fprintln(e.stdout, "no held review items to offer again")
			return nil
		}
		fmt.Fprintf(e.stdout, "offered %d held item(s) to %s again (batch %s): %d stored, %d reinforced, %d dropped, %d still held",
			st.Offered, jf.model, st.Batch, st.Stored, st.Reinforced, st.Dropped, st.NeedsReview)
		if st.JudgeErrors > 0 {
			fmt.Fprintf(e.stdout, " (%d because the judge failed)", st.JudgeErrors)
		}
		fmt.Fprintln(e.stdout)
		printReviewItems(e.stdout, st.Items)
		if st.Stored > 0 {
			fmt.Fprintf(e.stdout, "undo the stores with `memtrace rollback %s`\n", st.Batch)
		}
		return nil
	}
}

func reviewStore(fs *flag.FlagSet) runFunc {
	kind := enumString(fs, "kind", string(engine.KindFact), "`KIND`: fact or episode", string(engine.KindFact), string(engine.KindEpisode))
	typ := fs.String("type", "note", "label: preference, health, date, milestone, habit, achievement, gift, shared_thing, current_project, rule, correction, note …")
	importance := fs.Float64("importance", 0, "importance 0..1 (0: the type's default)")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	return func(e *env, words []string) error {
		ids, err := reviewIDs(words)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return usageError{"name the review item ids to store (`memtrace review list`)"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		d, err := capture.StoreReviews(e.ctx, eng, ids, capture.ReviewChoice{Kind: engine.Kind(*kind), Type: *typ, Importance: *importance})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSONText(e.stdout, d)
		}
		fmt.Fprintf(e.stdout, "stored %d review item(s) as memories in batch %s; undo with `memtrace rollback %s`\n", len(d.Items), d.Batch, d.Batch)
		printReviewItems(e.stdout, d.Items)
		return nil
	}
}

func reviewSkip(fs *flag.FlagSet) runFunc {
	reason := fs.String("reason", "", "why it is not a memory (kept on the item)")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	return func(e *env, words []string) error {
		ids, err := reviewIDs(words)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return usageError{"name the review item ids to skip (`memtrace review list`)"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		d, err := capture.SkipReviews(e.ctx, eng, ids, *reason, "")
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSONText(e.stdout, d)
		}
		fmt.Fprintf(e.stdout, "skipped %d review item(s) in batch %s; nothing was stored, and a skipped item can still be stored later with `memtrace review store ID`\n", len(d.Items), d.Batch)
		printReviewItems(e.stdout, d.Items)
		return nil
	}
}

// unembeddedOnly keeps the items held because the embedder was away; an
// item named by id that was held by a judge needs --judge.
func unembeddedOnly(items []*engine.ReviewItem, all bool) ([]*engine.ReviewItem, error) {
	var out []*engine.ReviewItem
	for _, it := range items {
		if strings.HasPrefix(it.Reason, capture.ReasonEmbedderUnavailable) {
			out = append(out, it)
		} else if !all {
			return nil, usageError{fmt.Sprintf("review item %d was held by a judge: name the judge with --judge MODEL (host from $OLLAMA_HOST); to decide without one, use `memtrace review store|skip ID…`", it.ID)}
		}
	}
	return out, nil
}
