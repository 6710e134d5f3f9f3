package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/curate"
	"memtrace/internal/textable"
)

// cmdCleanup scans stored memories with the noise patterns and proposes
// quarantine for pure noise.
func cmdCleanup(fs *flag.FlagSet) runFunc {
	dry := fs.Bool("dry-run", false, "report only; write no proposals")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		rep, err := curate.Cleanup(e.ctx, eng, curate.CleanupOptions{DryRun: *dry})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		printCleanup(e.stdout, rep)
		return nil
	}
}

func printCleanup(w io.Writer, r *curate.CleanupReport) {
	tbl := textable.New("PATTERN", "LAYER", "COUNT", "SHARE", "KEPT (has other info)").AlignRight(2, 3, 4)
	for _, p := range r.Patterns {
		tbl.Add(p.Pattern, p.Layer, p.Count, fmt.Sprintf("%.1f%%", p.Share), p.Kept)
	}
	tbl.Add("total", "", r.Noise, fmt.Sprintf("%.1f%%", r.Share), r.Kept)
	tbl.Write(w)
	fmt.Fprintf(w, "scanned %d active memories: %d are nothing but noise; %d match a pattern but carry other information and are kept\n",
		r.Scanned, r.Noise, r.Kept)
	if r.Curated > 0 {
		fmt.Fprintf(w, "%d curator-written memories match a pattern and are left alone\n", r.Curated)
	}
	switch {
	case r.DryRun:
		fmt.Fprintln(w, "dry run: no proposals written; run without --dry-run to propose quarantine")
	case r.Proposed > 0:
		fmt.Fprintf(w, "wrote %d quarantine proposals (nothing deleted or moved); approve with `memtrace approve --all-pending --kind quarantine` or in the Curate tab\n", r.Proposed)
	default:
		fmt.Fprintln(w, "no new proposals (the noise already has open quarantine proposals)")
	}
}
