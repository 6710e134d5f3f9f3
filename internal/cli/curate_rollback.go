package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

// cmdRollback runs `memtrace rollback BATCH`: every memory the batch
// changed goes back to its state before it, and its proposals to
// rolled_back.
func cmdRollback(e *env, args []string) error {
	fs := flag.NewFlagSet("rollback", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{"name one batch id (the Curate tab's history lists them)"}
	}
	db, err := store.Open(e.ctx, e.dbPath, time.Now)
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

// parseInterleaved parses flags that may come before or after the
// positional arguments ("rollback BATCH --json") and returns the
// positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest, args = append(rest, args[0]), args[1:]
	}
}
