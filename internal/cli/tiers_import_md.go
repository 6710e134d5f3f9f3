package cli

import (
	"flag"
	"fmt"

	"memtrace/tiers"
)

// importMarkdown reads the Markdown tiers back: `memtrace import md DIR
// [--json]`.
func importMarkdown(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print what changed as JSON")
	return func(e *env, pos []string) error {
		if len(pos) != 1 {
			return usageError{"name one directory: `memtrace import md DIR` (written by `memtrace export md DIR`)"}
		}
		dir := pos[0]
		// Like ingest, an import into a new path creates the database:
		// the tiers can be restored onto a new machine. A directory with
		// no tier files creates nothing.
		if err := tiers.CheckTierDir(dir); err != nil {
			return err
		}
		eng, closeDB, err := openOrCreate(e)
		if err != nil {
			return err
		}
		defer closeDB()
		res, err := tiers.ImportMarkdown(e.ctx, eng, dir)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, res)
		}
		fmt.Fprintf(e.stdout, "read %d memory lines from %d files in %s: %d updated, %d inserted, %d unchanged; %d lessons written; %d proposal(s) for the curator\n",
			res.Lines, res.Files, dir, res.Updated, res.Inserted, res.Unchanged, res.Lessons, res.Proposed)
		if res.Renumbered > 0 {
			fmt.Fprintf(e.stdout, "%d of the inserted lines name an id another memory holds here: they were inserted under new ids (the files come from another database)\n", res.Renumbered)
		}
		for _, s := range res.Skipped {
			fmt.Fprintf(e.stdout, "  not imported: %s\n", s)
		}
		if res.Proposed > 0 {
			fmt.Fprintln(e.stdout, "moves, deleted lines, new HOT lines and count edits wait as proposals: `memtrace proposals`, or the Curate tab")
		}
		if res.Updated+res.Inserted > 0 {
			fmt.Fprintf(e.stdout, "batch %s; undo with `memtrace rollback %s`\n", res.Batch, res.Batch)
		}
		return nil
	}
}
