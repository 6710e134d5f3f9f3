package cli

import (
	"flag"
	"fmt"
	"io"
)

// importMarkdown reads the Markdown tiers back: `memtrace import md DIR
// [--json]`. The import dispatcher calls it for the md kind, either with
// DIR and the arguments after it, or with dir "" and every argument after
// "md" (DIR is then the first positional one):
//
//	case "md":
//		return importMarkdown(e, "", rest)
func importMarkdown(e *env, dir string, args []string) error {
	fs := flag.NewFlagSet("import md", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print what changed as JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageError{err.Error()}
	}
	if dir == "" && len(pos) > 0 {
		dir, pos = pos[0], pos[1:]
	}
	if dir == "" {
		return usageError{"name the directory: `memtrace import md DIR` (written by `memtrace export md DIR`)"}
	}
	if len(pos) > 0 {
		return usageError{"unexpected argument " + pos[0]}
	}
	eng, closeDB, err := openTiersEngine(e)
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
