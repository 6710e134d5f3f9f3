package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/engine/safetext"
)

// cmdExport writes the Markdown tiers: `memtrace export md DIR [--json]`.
func cmdExport(e *env, args []string) error {
	if len(args) < 2 || args[0] != "md" {
		return usageError{"say what to export: `memtrace export md DIR`"}
	}
	dir := args[1]
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the files written as JSON")
	if err := fs.Parse(args[2:]); err != nil {
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
	res, err := eng.ExportMarkdown(e.ctx, dir)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	for _, f := range res.Files {
		if f.Cap > 0 {
			fmt.Fprintf(e.stdout, "%s %4d items %4d/%d lines\n", safetext.PadRight(safetext.SanitizeLine(f.Path), 28), f.Items, f.Lines, f.Cap)
		} else {
			fmt.Fprintf(e.stdout, "%s %4d items %4d lines\n", safetext.PadRight(safetext.SanitizeLine(f.Path), 28), f.Items, f.Lines)
		}
	}
	for _, p := range res.Removed {
		fmt.Fprintf(e.stdout, "removed stale %s\n", p)
	}
	fmt.Fprintf(e.stdout, "wrote %d files to %s; edit them and read them back with `memtrace import md %s`\n", len(res.Files), dir, dir)
	return nil
}
