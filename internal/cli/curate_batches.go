package cli

import (
	"flag"
	"fmt"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/textable"
)

// cmdBatches runs `memtrace batches [--limit N] [--json]`: every audited
// batch and every rejection (curate.BatchHistory), newest first, with who made it, what it did and whether it can be
// rolled back now.
func cmdBatches(fs *flag.FlagSet) runFunc {
	limit := fs.Int("limit", 20, "how many batches, newest first (0: all)")
	asJSON := fs.Bool("json", false, "print {\"batches\": [...]} as JSON")
	return func(e *env, rest []string) error {
		if len(rest) > 0 {
			return usageError{"unexpected argument " + rest[0]}
		}
		if *limit < 0 {
			return usageError{"--limit is a count of batches, 0 or more"}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		bs, err := curate.BatchHistory(e.ctx, db, *limit)
		if err != nil {
			return err
		}
		if *asJSON {
			if bs == nil {
				bs = []engine.BatchInfo{}
			}
			return writeJSON(e.stdout, map[string]any{"batches": bs})
		}
		if len(bs) == 0 {
			fmt.Fprintln(e.stdout, "no batches yet: ingest, import, approve or curate something first")
			return nil
		}
		tbl := textable.New("BATCH", "ACTOR", "EFFECT", "AT", "ROLLBACK")
		for _, b := range bs {
			state := "yes: memtrace rollback " + b.Batch
			if !b.CanRollback {
				state = "no: " + b.WhyNot
			}
			tbl.Add(b.Batch, b.Actor, curate.EffectText(b), b.At.UTC().Format("2006-01-02 15:04:05"), state)
		}
		return tbl.Write(e.stdout)
	}
}
