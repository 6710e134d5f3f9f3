package cli

import (
	"flag"
	"fmt"
	"memtrace/engine"

	"memtrace/internal/safetext"
	"memtrace/tiers"
)

// cmdExportMD writes the Markdown tiers: `memtrace export md DIR [--json]`.
func cmdExportMD(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the files written as JSON")
	return func(e *env, args []string) error {
		if len(args) != 1 {
			return usageError{"name one directory: `memtrace export md DIR`"}
		}
		dir := args[0]
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		res, err := tiers.ExportMarkdown(e.ctx, eng, dir)
		if err != nil {
			return err
		}
		recordArtifact(e, engine.ArtifactExport, dir)
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
}
