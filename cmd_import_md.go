package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
)

// importMarkdown reads the Markdown tiers back: `memtrace import md DIR
// [--json]`. The import dispatcher calls it for the md kind; args are the
// arguments after DIR.
func importMarkdown(e *env, dir string, args []string) error {
	fs := flag.NewFlagSet("import md", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print what changed as JSON")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{"unexpected argument " + fs.Arg(0)}
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
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(e.stdout, "read %d memory lines from %d files in %s: %d updated, %d inserted, %d unchanged; %d lessons written\n",
		res.Lines, res.Files, dir, res.Updated, res.Inserted, res.Unchanged, res.Lessons)
	if res.Updated+res.Inserted > 0 {
		fmt.Fprintf(e.stdout, "batch %s; undo with `memtrace rollback %s`\n", res.Batch, res.Batch)
	}
	return nil
}
