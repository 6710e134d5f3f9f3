package cli

import (
	"encoding/json"
	"flag"
	"fmt"

	"memtrace/engine"
)

// cmdRollback runs `memtrace rollback BATCH`: every memory the batch
// changed goes back to its state before it, and its proposals to
// rolled_back.
func cmdRollback(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, rest []string) error {
		if len(rest) != 1 {
			return usageError{"name one batch id (the Curate tab's history lists them)"}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		rep, err := engine.RollbackApplied(e.ctx, db, rest[0], "curator")
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(rep)
		}
		fmt.Fprintf(e.stdout, "rolled back batch %s: %d memor(y/ies) restored\n", rep.Batch, rep.Restored)
		return nil
	}
}
