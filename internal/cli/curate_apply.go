package cli

import (
	"flag"
	"fmt"

	"memtrace/curate"
	"memtrace/internal/wording"
)

// cmdApply runs `memtrace apply FILE|--approved`: every approved proposal
// (those of FILE's memories, when a verdict file is named) applied in one
// transaction, verified 1:1, under one batch that rollback undoes.
func cmdApply(fs *flag.FlagSet) runFunc {
	approved := fs.Bool("approved", false, "apply every approved proposal")
	batch := fs.String("batch", "", "batch id `ID` of your own naming (default: a fresh apply-TIME-N; an id of that form, or one that exists, is refused)")
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, rest []string) error {
		var o curate.ApplyOptions
		switch {
		case *approved && len(rest) == 0:
		case !*approved && len(rest) == 1:
			vs, err := curate.ReadVerdictFile(rest[0])
			if err != nil {
				return err
			}
			o.Verdicts = vs
		default:
			return usageError{"name one verdict file, or --approved"}
		}
		// Through the engine: an approved promotion writes a HOT rule, which is
		// embedded and indexed like any memory.
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		o.Batch = *batch
		rep, err := curate.Apply(e.ctx, eng, o)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		fmt.Fprintf(e.stdout, "applied %s and confirmed %s in batch %s\n", wording.Count(rep.Applied, "change"), wording.Count(rep.Confirmed, "keep record"), rep.Batch)
		if len(rep.Withdrawn) > 0 {
			fmt.Fprintf(e.stdout, "withdrew %s the batch made moot: %v\n", wording.Count(len(rep.Withdrawn), "proposal"), rep.Withdrawn)
		}
		fmt.Fprintf(e.stdout, "undo with: memtrace rollback %s\n", rep.Batch)
		return nil
	}
}
