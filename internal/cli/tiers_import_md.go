package cli

import (
	"flag"
	"fmt"
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
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		res, err := eng.ImportMarkdown(e.ctx, dir)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, res)
		}
		fmt.Fprintf(e.stdout, "read %d memory lines from %d files in %s: %d updated, %d inserted, %d unchanged; %d lessons written\n",
			res.Lines, res.Files, dir, res.Updated, res.Inserted, res.Unchanged, res.Lessons)
		if res.Updated+res.Inserted > 0 {
			fmt.Fprintf(e.stdout, "batch %s; undo with `memtrace rollback %s`\n", res.Batch, res.Batch)
		}
		return nil
	}
}
